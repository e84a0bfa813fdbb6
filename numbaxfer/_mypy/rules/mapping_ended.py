"""``use-after-transfer`` (its own message): ``mapping.device`` (or an alias of it) used
after ``mapping.wait()`` ended the mapping. At run time the device view is retired by
``wait()`` and any use of it raises ``UseAfterTransferError``, the error of this code;
reading its metadata (``shape``, ...) stays allowed, as at run time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ..._wording import ENDS
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
    verb = "may be used" if maybe else "is used"
    ended = ENDS["mapping-end"].format(site=lines_text(waits)).rstrip(".")
    text = (
        f'"{name}" (mapped by {maps[0].callee}() at line {maps[0].line}) {verb} after its '
        f"mapping ended{' on some path' if maybe else ''}: {ended}"
    )
    yield (CODE, ev.node, text, (*ev.dedupe(), "g"))
