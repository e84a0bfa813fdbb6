"""Rule 3, ``lend-escape``: the handle of ``with x.lend() as v:`` used after its block."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.errorcodes import ErrorCode

from ..._wording import LEND_ENDED_FIX
from ..flow import Analysis, Event
from ..paths import display_path
from ..state import Message
from ..wording import fact_order, lines_text
from .codes import CATEGORY

CODE: Final = ErrorCode(
    "lend-escape", "A lent handle is used after its `with ... lend()` block", CATEGORY
)
#: A read of a path whose atoms include an expired lend.
EVENTS: Final = frozenset({"use"})


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    facts = an.scope.facts
    lends = sorted({facts[a[1]] for a in ev.atoms if a[0] == "X"}, key=fact_order)
    if not any(f.confirmed for f in lends):
        return
    name = display_path(ev.path)
    maybe = any(a[0] != "X" for a in ev.atoms)
    lines = {f.line for f in lends}
    owners = {an.lends.get(f.id, ("", ""))[1] for f in lends} - {""}
    owner = f' "{sorted(owners)[0]}"' if owners else ""
    verb = "may be used" if maybe else "is used"
    text = (
        f'Lent handle "{name}" {verb} after its "with ... .lend()" block (lent at '
        f"{lines_text(lines)}) has ended{' on some path' if maybe else ''}; "
        + LEND_ENDED_FIX.format(owner=owner)
    )
    yield (CODE, ev.node, text, (*ev.dedupe(), "l"))
