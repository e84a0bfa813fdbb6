"""``use-after-transfer`` (its own message): the handle of an ``nx.pinned(...)`` /
``nx.mapped(...)`` block used after the block ended (``with nx.pinned(a) as h:``, or
``h = stack.enter_context(nx.pinned(a))`` and the exit stack's block). At run time the
block's exit expires the handle (the memory is unpinned) and any use of it raises
``BorrowError`` (as for an expired lent handle); its metadata stays readable. It is
reported as a use of a handle that has ended, like ``mapping.device`` after
``mapping.wait()``, with the runtime's wording (``_wording.ENDS["expire-pinned"]``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ..._wording import ENDS
from ..flow import Analysis, Event
from ..paths import display_path
from ..state import Message
from ..wording import lines_text
from . import use_after_transfer

#: The code of use_after_transfer (the same mistake, its own message).
CODE: Final = use_after_transfer.CODE

#: A read of a path whose atoms include an expired pinned handle (``U``: the pin's line,
#: the line its block ends).
EVENTS: Final = frozenset({"use"})


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    gone = [a for a in ev.atoms if a[0] == "U"]
    if not gone or any(a[0] == "M" for a in ev.atoms):
        return  # a moved buffer is use_after_transfer's to report
    name = display_path(ev.path)
    maybe = any(a[0] != "U" for a in ev.atoms)
    pins = lines_text({a[1] for a in gone})
    ends = lines_text({a[2] for a in gone})
    verb = "may be used" if maybe else "is used"
    ended = ENDS["expire-pinned"].format(site=ends)
    text = (
        f'"{name}" (pinned in place at {pins}) {verb} after its block ended'
        f"{' on some path' if maybe else ''}: {ended}"
    )
    yield (CODE, ev.node, text, (*ev.dedupe(), "u"))
