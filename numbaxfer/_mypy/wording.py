"""Message building blocks shared by the rules: line lists, the fix a message
prescribes, the array a chained transfer carries."""

from __future__ import annotations

from .facts import Fact
from .flow import Analysis
from .paths import display_path


def lines_text(lines: set[int]) -> str:
    """``line 3`` or ``lines 3, 5 and 9``."""
    ordered = sorted(lines)
    if len(ordered) == 1:
        return f"line {ordered[0]}"
    return "lines " + ", ".join(str(x) for x in ordered[:-1]) + f" and {ordered[-1]}"


def fact_order(f: Fact) -> tuple[int, int, int]:
    """Source order of facts (the first one is the one a message names)."""
    return (f.line, f.end[1], f.id)


def buffer_name(an: Analysis, name: str) -> str:
    """The array a chained transfer carries: for ``down = s.download(d, into=up)`` the
    moved name is the transfer ``up``; what ``down.wait()`` returns is up's array."""
    for _ in range(8):  # chains of chains
        nxt = None
        for fid, bound in an.binds.items():
            fact = an.scope.facts[fid] if 0 <= fid < len(an.scope.facts) else None
            if bound and bound[0] == name and (fact is None or fact.producer):
                moved = an.moved.get(fid, [])
                if moved:
                    nxt = display_path(moved[0])
                    break
        if nxt is None or nxt == name:
            return name
        name = nxt
    return name


def take_back_fix(an: Analysis, fact: Fact, moved: str) -> str:
    """How to make ``moved`` usable again after ``fact`` moved it."""
    if fact.producer:
        moved = buffer_name(an, moved)
        bound = an.binds.get(fact.id)
        t = bound[0] if bound else "<transfer>"
        return f'take it back first: "{moved} = {t}.wait()"'
    return f'rebind "{moved}" to a new value first ({fact.callee}() owns the old one)'
