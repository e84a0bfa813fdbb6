"""Rule 3, ``lend-escape``: the handle of ``with x.lend() as v:`` (or of a user
``@contextmanager`` that yields a Lent handle) used after its block, or escaping it:
returned, stored in an attribute, a container or a global, or read by a closure that
leaves with it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.errorcodes import ErrorCode

from ..._wording import LEND_ENDED_FIX
from ..flow import LENT_PARAMETER, Analysis, Event
from ..paths import display_path
from ..state import Message
from ..wording import fact_order, lines_text, read_by
from .codes import CATEGORY

CODE: Final = ErrorCode(
    "lend-escape", "A lent handle is used after its `with ... lend()` block", CATEGORY
)
#: ``use``: a read of a path whose atoms include an expired lend; ``escape``: a live
#: lent handle leaving its block (``extra`` says how).
EVENTS: Final = frozenset({"use", "escape"})

#: Added to the fix where a function kept the lent handle (``w.attach(ls)``, inputs.py).
STORED_FIX: Final = "; pass it to the calls that need it inside the block instead of storing it"

_HOW: Final = {
    "return": "is returned from its block",
    "store": "is stored where it outlives its block",
    "container": "is put in a container that outlives its block",
}


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    facts = an.scope.facts
    kinds = "LX" if ev.kind == "escape" else "X"
    lends = sorted({facts[a[1]] for a in ev.atoms if a[0] in kinds}, key=fact_order)
    if not any(f.confirmed for f in lends):
        return
    name = display_path(ev.path)
    lines = {f.line for f in lends}
    owners = {an.lends.get(f.id, ("", ""))[1] for f in lends} - {""}
    owner = f' "{sorted(owners)[0]}"' if owners else ""
    block = an.lend_blocks.get(lends[0].id, '"with ... .lend()"')
    if ev.kind == "escape" and all(f.callee == LENT_PARAMETER for f in lends):
        # ``_EXPORTED[name] = view`` in a function taking ``view: DeviceArray[Lent, ...]``
        verb = _HOW.get(ev.extra, "escapes its block").replace("its block", "the call")
        text = (
            f'Lent parameter "{name}" {verb} (a module global): it expires when the '
            f"caller's lend block ends. Keep a lent handle inside its block: store what you "
            f"read from it (a copy, its shape), or take an Owned handle"
        )
        yield (CODE, ev.node, text, (*ev.dedupe(), "l"))
        return
    if ev.kind == "escape":
        how, _, closure = ev.extra.partition(" ")
        verb = _HOW.get(how, "escapes its block")
        if closure:
            subject = f'Lent handle "{name}" (read by the {closure} {verb.split(" ", 1)[1]})'
            verb = "escapes with it"
        else:
            subject = f'Lent handle "{name}"'
        use_owner = f" or use the owner{owner}" if owner else ""
        text = (
            f"{subject} {verb}: it expires when its {block} block (lent at "
            f"{lines_text(lines)}) ends. Keep a lent handle inside its block: return or "
            f"store what you read from it (a copy, its shape){use_owner}"
        )
        yield (CODE, ev.node, text, (*ev.dedupe(), "l"))
        return
    maybe = any(a[0] != "X" for a in ev.atoms)
    verb = "may be used" if maybe else "is used"
    notes: list[str] = []
    lent = {an.lends.get(f.id, ("", ""))[0] for f in lends} - {"", ev.path}
    stored = an.stored_by.get(ev.path)
    if stored is not None and not {("L", f.id, 0) for f in lends} & stored[2]:
        stored = None  # it was stored there, but not this lend
    if lent:
        same = f'the same object as "{sorted(lent)[0]}"'
        if stored is not None:  # ``w.attach(ls)`` kept it in ``w.stream`` (inputs.py)
            same += f', stored by "{stored[0]}()" at line {stored[1]}'
        notes.append(same)
    if ev.extra:
        notes.append(read_by(ev))
    shown = f'"{name}"' + (f" ({'; '.join(notes)})" if notes else "")
    text = (
        f"Lent handle {shown} {verb} after its {block} block (lent at "
        f"{lines_text(lines)}) has ended{' on some path' if maybe else ''}; "
        + LEND_ENDED_FIX.format(owner=owner)
        + (STORED_FIX if stored is not None else "")
    )
    yield (CODE, ev.node, text, (*ev.dedupe(), "l"))
