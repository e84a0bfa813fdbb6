"""Rule 3, ``owner-borrowed``: the owner of a lent handle is moved, written or freed
inside its ``with h.lend()`` block, or the owner of an open ``write()`` view is moved,
written, read, lent or freed inside its ``with h.write()`` block. The runtime refuses
each with ``BorrowError`` (and the refused call changes nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.errorcodes import ErrorCode

from ..flow import Analysis, Event
from ..paths import display_path
from ..state import Message
from .codes import CATEGORY

CODE: Final = ErrorCode(
    "owner-borrowed",
    "The owner of a lent handle (or of an open write() view) is moved or written in its block",
    CATEGORY,
)
#: ``borrowed``: ``extra`` is "<op> <lend|write>", op "move" or a method ("write()").
EVENTS: Final = frozenset({"borrowed"})


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    facts = an.scope.facts
    op, _, kind = ev.extra.partition(" ")
    fact_ids = {a[1] for a in ev.atoms if a[0] == "B" and a[1] >= 0}
    if op == "move" and not any(facts[i].confirmed for i in fact_ids):
        return
    name = display_path(ev.path)
    lines = sorted({a[2] for a in ev.atoms if a[0] == "B"})
    line = ", ".join(str(n) for n in lines)
    if op == "move":
        callees = sorted({facts[i].callee + "()" for i in fact_ids})
        what = f'"{name}" is moved into {" / ".join(callees)}'
        origins = sorted({facts[i].origin for i in fact_ids if facts[i].origin})
        if origins:  # a method's summary (classes.py)
            what += f" by {' / '.join(origins)}, called here,"
    elif op.startswith("launch#"):
        what = (
            f'"{name}" is passed to a kernel that may write it (its argument '
            f"{op[len('launch#') :]}; a plain numba kernel may write every array it gets)"
        )
    else:
        method, _, by = op.partition("@")
        if by and _moved_too(an, ev):
            return  # the same call moves it too: that report says more
        what = f'"{name}.{method}" is called' + (f" by {by}(), called here," if by else "")
    if kind == "lend":
        text = (
            f'{what} while it is lent: its "with {name}.lend()" block (line {line}) is still '
            "open, and a lent handle's owner may only be read (not written, moved, freed or "
            "closed). Do it after the block ends, or read what you need through the lent "
            "handle first"
        )
    else:
        text = (
            f'{what} while its write() view is open: its "with {name}.write()" block (line '
            f"{line}) is still open. Do it after the block ends, or work through the view "
            "the block gave you"
        )
    yield (CODE, ev.node, text, (*ev.dedupe(), "b"))


def _moved_too(an: Analysis, ev: Event) -> bool:
    """A ``move`` report of ``ev.path`` at the same call (``self._stage()`` writes
    ``self.host`` and then uploads it)."""
    facts = an.scope.facts
    for other in an.events.values():
        if other.kind != "borrowed" or other.path != ev.path or other is ev:
            continue
        if other.node.line != ev.node.line or not other.extra.startswith("move "):
            continue
        ids = {a[1] for a in other.atoms if a[0] == "B" and a[1] >= 0}
        if any(facts[i].confirmed for i in ids):
            return True
    return False
