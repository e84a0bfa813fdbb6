"""Message building blocks shared by the rules: line lists, the fix a message
prescribes, the array a chained transfer carries."""

from __future__ import annotations

from mypy.nodes import MemberExpr

from .facts import Fact
from .flow import Analysis, Event
from .names import CLOSURE_READ
from .paths import display_path


def lines_text(lines: set[int]) -> str:
    """``line 3`` or ``lines 3, 5 and 9``."""
    ordered = sorted(lines)
    if len(ordered) == 1:
        return f"line {ordered[0]}"
    return "lines " + ", ".join(str(x) for x in ordered[:-1]) + f" and {ordered[-1]}"


def read_by(ev: Event) -> str:
    """Who read the path at ``ev`` for the caller: a method called there, or a
    property's getter (``obj.prop``, a member expression)."""
    if ev.extra.startswith(CLOSURE_READ):
        return f"read by the closure {ev.extra[len(CLOSURE_READ) :]}, when it is called"
    if isinstance(ev.node, MemberExpr):
        return f'read by the property "{ev.extra}", read here'
    return f'read by "{ev.extra}()", called here'


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


def taken_back(an: Analysis, fact: Fact, moved: str) -> str:
    """What ``wait()`` of the result of ``fact`` gives back, as an assignment target:
    ``host`` (or, for a chained transfer, the array it carries), or ``src, dst`` for a
    result holding several buffers (``Pipeline.map``)."""
    paths = an.moved.get(fact.id, [])
    if len(paths) > 1:
        return ", ".join(display_path(p) for p in paths)
    return buffer_name(an, moved)


def holder(an: Analysis, fact: Fact, at: tuple[int, int] | None = None) -> str:
    """The name whose ``wait()`` gives back what ``fact``'s result holds: the name it is
    bound to or, where that transfer was handed on to a chained one (``down =
    s.download(dev, into=up)``, before ``at`` if given), the chained transfer's name."""
    bound = an.binds.get(fact.id)
    if bound is None:
        held = an.held_in.get(fact.id)  # stored in an attribute or a slot
        return display_path(held) if held else "<transfer>"
    name = bound[0]
    for _ in range(8):  # chains of chains
        nxt = None
        for fid, paths in an.moved.items():
            other = an.binds.get(fid)
            chain = an.scope.facts[fid]
            if at is not None and chain.end > at:
                continue  # chained after the point the message is about
            if name in paths and other is not None and chain.producer:
                nxt = other[0]
                break
        if nxt is None or nxt == name:
            break
        name = nxt
    return name


def take_back_fix(an: Analysis, fact: Fact, moved: str, at: tuple[int, int] | None = None) -> str:
    """How to make ``moved`` usable again after ``fact`` moved it."""
    if fact.producer:
        moved = taken_back(an, fact, moved)
        return f'take it back first: "{moved} = {holder(an, fact, at)}.wait()"'
    return f'rebind "{moved}" to a new value first ({fact.callee}() owns the old one)'
