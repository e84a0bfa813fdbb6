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
from ..state import STORED, Message
from ..wording import fact_order, taken_back
from .codes import CATEGORY

CODE: Final = ErrorCode(
    "unfinished-transfer",
    "A transfer is discarded, dropped, or never completed with wait()",
    CATEGORY,
)
#: ``discard``: a transfer as an expression statement; ``drop``: its name rebound or
#: deleted while pending; ``leak``: still pending at the end of the scope;
#: ``close-pending``: its stream closed while it is pending (``flow.on_stream``);
#: ``close-before-wait``: an object's stream closed before the same path completes the
#: transfer an attribute held at entry (``flow.closed_before``).
EVENTS: Final = frozenset({"discard", "drop", "leak", "close-pending", "close-before-wait"})


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    if ev.kind != "discard" and root_name(ev.path) in an.lambda_reads:
        return  # a lambda reads the transfer: handed on
    text = _text(an, ev)
    if text is not None:
        yield (CODE, ev.node, text, ev.dedupe())


def _text(an: Analysis, ev: Event) -> str | None:
    facts = an.scope.facts
    if ev.kind == "close-before-wait":
        stream, line = ev.extra.rsplit(" ", 1)
        name = display_path(ev.path)
        return (
            f'Stream "{stream}" is closed while "{name}" may still hold a transfer started on '
            f'it: "{name}.wait()" comes only after, at line {line}, and close() refuses '
            "(StreamClosedError) while a transfer started on the stream is not completed. "
            f'Complete "{name}" first, then close the stream'
        )
    if ev.kind == "discard":
        fact = facts[next(iter(ev.atoms))[1]]
        if not fact.confirmed:
            return None
        moved = an.moved.get(fact.id, [])
        what = f'"{display_path(moved[0])}" stays moved and ' if moved else ""
        back = taken_back(an, fact, display_path(moved[0])) if moved else "arr"
        call = ev.node
        shown = fact.callee
        if isinstance(call, CallExpr):
            chain = path_chain(call.callee)
            if chain is not None:
                shown = display_path(chain[-1][0])
        noun = "Mapping" if fact.mapping else "Transfer"
        return (
            f"{noun} returned by {fact.callee}() is discarded: nothing can complete it, so "
            f'{what}the copy is never waited for. Bind it and complete it: "t = {shown}(...)", '
            f'then "{back} = t.wait()"'
        )
    pending = sorted(
        {
            facts[a[1]]
            for a in ev.atoms
            if a[0] == "P"
            # stored into an attribute here and handed on on no path (flow.set_value)
            or (a[0] == "E" and a[2] == STORED and an.stored_dropped(a[1]))
        },
        key=fact_order,
    )
    if ev.kind in ("leak", "close-pending"):
        pending = [facts[int(ev.extra.split(" ")[0])]]
    # A transfer held in an attribute by a method (classes.py) is the object's: not
    # checked for completion here.
    pending = [f for f in pending if f.confirmed and not f.origin]
    if not pending:
        return None
    fact = pending[0]
    maybe = any(a[0] != "P" and not (a[0] == "E" and a[2] == STORED) for a in ev.atoms)
    name = display_path(ev.path)
    moved = an.moved.get(fact.id, [])
    back = taken_back(an, fact, display_path(moved[0])) if moved else "arr"
    fix = f'"{back} = {name}.wait()"'
    started = f"started at line {fact.line} by {fact.callee}()"
    noun = "Mapping" if fact.mapping else "Transfer"
    if ev.kind == "close-pending":
        stream = ev.extra.split(" ", 1)[1]
        verb = "may still be pending" if maybe else "is still pending"
        return (
            f'Stream "{stream}" is closed while {noun.lower()} "{name}" ({started}) on it '
            f"{verb}: close() refuses (StreamClosedError) while a transfer started on the "
            f"stream is not completed. Complete it first: {fix}"
        )
    if ev.kind == "drop":
        verb = "may be dropped here" if maybe else "is dropped here"
        return (
            f'{noun} "{name}" ({started}) {verb} without being completed: rebinding or '
            f'deleting "{name}" loses it{" on some path" if maybe else ""}. Complete it '
            f"first: {fix}"
        )
    verb = "may be left unfinished on some path" if maybe else "is never completed"
    return f'{noun} "{name}" ({started}) {verb}; complete it on every path: {fix}'
