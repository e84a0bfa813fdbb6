"""Rule 2 (its other half), ``transfer-completed-twice``: ``wait()`` on a transfer that
was already completed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.errorcodes import ErrorCode

from ..flow import Analysis, Event
from ..names import ONE_DONE
from ..paths import display_path
from ..state import Message
from ..wording import lines_text
from .codes import CATEGORY

CODE: Final = ErrorCode(
    "transfer-completed-twice", "wait() on a transfer that was already completed", CATEGORY
)
#: A completion of a path whose atoms include a completed transfer.
EVENTS: Final = frozenset({"twice"})


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    facts = an.scope.facts
    if not any(a[0] == "W" and (a[1] < 0 or facts[a[1]].confirmed) for a in ev.atoms):
        return
    maybe = any(a[0] != "W" for a in ev.atoms)
    first = {a[2] for a in ev.atoms if a[0] == "W" and a[2] >= 0}
    verb = "may be completed twice" if maybe else "is completed twice"
    subject = f'Transfer "{display_path(ev.path)}"'
    fix = "use the array the first wait() returned"
    loops = sorted({an.elems.wait_loops[x] for x in first if x in an.elems.wait_loops})
    if loops:  # ``for t in ups: t.wait()`` earlier (elements.py)
        box = display_path(loops[0][0])
        subject += (
            f' (an element of "{box}", which still holds the transfers the loop at line '
            f"{loops[0][1]} completed)"
        )
        fix = (
            f'use the arrays the first waits returned, or take each transfer out of "{box}" '
            f'as you complete it ("{box}.pop(k).wait()", or clear "{box}" after the loop)'
        )
    ones = sorted({an.elems.done_lines[x] for x in first if x in an.elems.done_lines})
    earlier_on = "on it "
    members = sorted({an.elems.member_names[x] for x in first if x in an.elems.member_names})
    if not loops and ones and members:  # ``pending.append(t)``, ``t.wait()``, then the loop
        box, name = display_path(ones[0]), display_path(members[0])
        subject += f' (an element of "{box}", which still holds "{name}")'
        earlier_on = f'on "{name}" '
        fix = (
            f'take "{name}" out of "{box}" as you complete it (remove, pop or del it), or '
            f'complete it only in the loop over "{box}"'
        )
    elif not loops and ones:  # ``downs[0].wait()`` before ``for t in downs``
        box = display_path(ones[0])
        by = sorted({an.elems.done_by[x] for x in first if x in an.elems.done_by})
        how = f"by {by[0]}(), which left it there, " if by else ""
        subject += f' (an element of "{box}", one of which was completed {how}before the loop)'
        fix = (
            f'take that transfer out of "{box}" as you complete it ("{box}.pop(k).wait()"), '
            "or leave its element out of the loop"
        )
    drain = an.elems.drained_by.get(ev.node.line) if ev.path.endswith(ONE_DONE) else None
    if drain is not None:  # ``batch.collect(k)`` then ``batch.close()`` (classes.py)
        box = display_path(ev.path[: -len(ONE_DONE)])
        by = sorted({an.elems.done_by[x] for x in first if x in an.elems.done_by})
        who = f"{by[0]}() at {lines_text(first)}" if by else f"a call at {lines_text(first)}"
        method = by[0] if by else "the method"
        text = (
            f'A transfer in "{box}" may be completed twice by {drain[0]}() at this call: '
            f'it completes every transfer "{box}" holds (its wait() at line {drain[1]}), and '
            f"{who} already completed one of them and left it there. A transfer is "
            f"completed exactly once: have {method}() take the transfer out of the "
            f'container as it completes it (".pop(k).wait()"), or have {drain[0]}() '
            "skip the completed ones"
        )
        yield (CODE, ev.node, text, ev.dedupe())
        return
    calls = sorted({an.elems.wait_calls[x] + (x,) for x in first if x in an.elems.wait_calls})
    if not loops and not ones and calls and calls[0][1]:  # ``collect(jobs)`` earlier
        name, box, line = calls[0][0], display_path(calls[0][1]), calls[0][2]
        if "[$" not in ev.path:
            subject += (
                f' (an element of "{box}", which still holds the transfers {name}() '
                f"completed at line {line})"
            )
        fix = (
            f"use the arrays the first waits returned, or have {name}() take each "
            f'transfer out of "{box}" as it completes it ("{box}.pop(k).wait()")'
        )
    if ev.extra:  # ``summary(jobs)``: the function called here completes it again
        verb += f" by {ev.extra}() at this call"
    if "[$" in ev.path:
        subject = f'Each transfer "{display_path(ev.path)}"'
    earlier = f"at {lines_text(first)}"
    if calls and len(calls) == len(first):  # completed by a call of a function
        earlier += f" (in {', '.join(c[0] + '()' for c in calls)})"
    text = (
        f"{subject} {verb}: wait() was already called {earlier_on}{earlier}"
        f"{' on some path' if maybe and not members else ''}, and gave its array "
        f"back then. A transfer is completed exactly once: {fix}"
    )
    yield (CODE, ev.node, text, ev.dedupe())
