"""Rule 2, ``unfinished-transfer``: a transfer discarded, dropped by rebinding or
deleting its name, or never completed (``Transfer[None]`` from ``Stream.copy`` is
exempt: it moves no host buffer)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.errorcodes import ErrorCode
from mypy.nodes import CallExpr

from ..flow import Analysis, Event
from ..paths import display_path, path_chain, root_name
from ..state import Message
from ..wording import buffer_name, fact_order
from .codes import CATEGORY

CODE: Final = ErrorCode(
    "unfinished-transfer",
    "A transfer is discarded, dropped, or never completed with wait()",
    CATEGORY,
)
#: ``discard``: a transfer as an expression statement; ``drop``: its name rebound or
#: deleted while pending; ``leak``: still pending at the end of the scope.
EVENTS: Final = frozenset({"discard", "drop", "leak"})


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    if ev.kind != "discard" and root_name(ev.path) in an.lambda_reads:
        return  # a lambda reads the transfer: handed on
    text = _text(an, ev)
    if text is not None:
        yield (CODE, ev.node, text, ev.dedupe())


def _text(an: Analysis, ev: Event) -> str | None:
    facts = an.scope.facts
    if ev.kind == "discard":
        fact = facts[next(iter(ev.atoms))[1]]
        if not fact.confirmed:
            return None
        moved = an.moved.get(fact.id, [])
        what = f'"{display_path(moved[0])}" stays moved and ' if moved else ""
        back = display_path(moved[0]) if moved else "arr"
        call = ev.node
        shown = fact.callee
        if isinstance(call, CallExpr):
            chain = path_chain(call.callee)
            if chain is not None:
                shown = display_path(chain[-1][0])
        return (
            f"Transfer returned by {fact.callee}() is discarded: nothing can complete it, so "
            f'{what}the copy is never waited for. Bind it and complete it: "t = {shown}(...)", '
            f'then "{back} = t.wait()"'
        )
    pending = sorted({facts[a[1]] for a in ev.atoms if a[0] == "P"}, key=fact_order)
    if ev.kind == "leak":
        pending = [facts[int(ev.extra)]]
    pending = [f for f in pending if f.confirmed]
    if not pending:
        return None
    fact = pending[0]
    maybe = any(a[0] != "P" for a in ev.atoms)
    name = display_path(ev.path)
    moved = an.moved.get(fact.id, [])
    back = buffer_name(an, display_path(moved[0])) if moved else "arr"
    fix = f'"{back} = {name}.wait()"'
    started = f"started at line {fact.line} by {fact.callee}()"
    if ev.kind == "drop":
        verb = "may be dropped here" if maybe else "is dropped here"
        return (
            f'Transfer "{name}" ({started}) {verb} without being completed: rebinding or '
            f'deleting "{name}" loses it{" on some path" if maybe else ""}. Complete it '
            f"first: {fix}"
        )
    verb = "may be left unfinished on some path" if maybe else "is never completed"
    return f'Transfer "{name}" ({started}) {verb}; complete it on every path: {fix}'
