"""``use-after-transfer`` (its own message): ``mapping.device`` (or an alias of it) used
after ``mapping.wait()`` ended the mapping. At run time the device view is retired by
``wait()`` and any use of it raises ``UseAfterTransferError``, the error of this code;
reading its metadata (``shape``, ...) stays allowed, as at run time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ..flow import Analysis, Event
from ..paths import display_path
from ..state import Message
from ..wording import fact_order, lines_text
from . import use_after_transfer

#: The code of use_after_transfer (the same mistake, its own message).
CODE: Final = use_after_transfer.CODE

#: A read of a path whose atoms include an ended mapping's device view (``G``).
EVENTS: Final = frozenset({"use"})


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    facts = an.scope.facts
    gone = [a for a in ev.atoms if a[0] == "G"]
    maps = sorted({facts[a[1]] for a in gone}, key=fact_order)
    if not any(f.confirmed for f in maps):
        return
    name = display_path(ev.path)
    maybe = any(a[0] != "G" for a in ev.atoms)
    waits = {a[2] for a in gone}
    holder = an.binds.get(maps[0].id)
    mapping = holder[0] if holder else "mapping"
    moved = an.moved.get(maps[0].id, [])
    host = display_path(moved[0]) if moved else "host"
    verb = "may be used" if maybe else "is used"
    text = (
        f'"{name}" (the device view of the mapping made by {maps[0].callee}() at line '
        f"{maps[0].line}) {verb} after wait() ended the mapping at {lines_text(waits)}"
        f"{' on some path' if maybe else ''}; the view ends with it. Use it before the "
        f'wait(), or map again: "{mapping} = s.map({host})"'
    )
    yield (CODE, ev.node, text, (*ev.dedupe(), "g"))
