"""Rule 1, ``use-after-transfer``: a path moved into a consuming call is used before it
is rebound ("is used" on every path, "may be used" on some)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.errorcodes import ErrorCode

from ..elements import ELEMENT, MARK, marked_container
from ..facts import Fact
from ..flow import Analysis, Event
from ..names import CLOSURE_READ, DEFERRED, DEFERRED_THREAD, YIELDED
from ..paths import display_path
from ..state import Message
from ..wording import fact_order, holder, lines_text, read_by, take_back_fix, taken_back
from .codes import CATEGORY

CODE: Final = ErrorCode(
    "use-after-transfer",
    "A buffer moved into a consuming call (a transfer) is used before it is rebound",
    CATEGORY,
)
#: The engine's events this rule reads: a read of a path whose atoms include a move;
#: a method of a stream called after its ``close()`` (``extra``: "upload()", or
#: "via Label" for a method of the program that calls one, ``classes.py``).
EVENTS: Final = frozenset({"use", "closed-use"})


def _closed_message(an: Analysis, ev: Event) -> Message:
    """A stream used after ``close()``: closing a ``Stream[Owned]`` consumes it."""
    name = display_path(ev.path)
    closes = sorted({a[1] for a in ev.atoms if a[0] == "C"})
    where = []
    for idx in closes:
        node = an.close_nodes[idx]
        label = an.close_labels.get(idx)
        if label and label.startswith("("):  # how it was closed, in words
            where.append(f"line {node.line} {label}")
        else:
            where.append(f"line {node.line}" + (f" (by {label}(), called there)" if label else ""))
    maybe = any(a[0] != "C" for a in ev.atoms)
    if ev.extra.startswith("via "):
        what = f'Stream "{name}" (used by "{ev.extra[4:]}()", called here)'
    else:
        what = f'Stream "{name}" ({ev.extra} here)'
    text = (
        f"{what} {'may be used' if maybe else 'is used'} after it was closed at "
        f"{', '.join(where)}{' on some path' if maybe else ''}: a closed stream refuses "
        f'all work (StreamClosedError). Open a new one first ("{name} = nx.stream()"), '
        "or close it after its last use"
    )
    return (CODE, ev.node, text, (*ev.dedupe(), "c"))


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    if ev.kind == "closed-use":
        yield _closed_message(an, ev)
        return
    facts = an.scope.facts
    moves = sorted({facts[a[1]] for a in ev.atoms if a[0] == "M"}, key=fact_order)
    if not any(f.confirmed for f in moves):
        return
    if any(a[0] == "M" and a[2] == ELEMENT for a in ev.atoms):
        yield (CODE, ev.node, _element_message(an, ev, moves), ev.dedupe())
        return
    name = display_path(ev.path)
    maybe = any(a[0] != "M" for a in ev.atoms)
    lines = {f.line for f in moves}
    callees = sorted({f.callee + "()" for f in moves})
    moved_paths = {p for f in moves for p in an.moved.get(f.id, [])}
    subject = f'"{name}"'
    if moved_paths and ev.path not in moved_paths:
        others = ", ".join(f'"{display_path(p)}"' for p in sorted(moved_paths))
        subject += f" (the same object as {others})"
    if ev.extra:
        subject += f" ({read_by(ev)})"
    verb = "may be used" if maybe else "is used"
    use_at = (ev.node.line, ev.node.column)
    loop = (
        " (in an earlier loop iteration)"
        if all(use_at < f.end and not f.origin for f in moves)
        and not ev.extra.startswith(CLOSURE_READ)
        else ""
    )
    where = f" in {moves[0].origin}" if moves[0].origin else ""
    fix_path = ev.path
    if ev.path not in moved_paths:  # an alias: take back the moved name
        fix_path = sorted(an.moved.get(moves[0].id, [ev.path]))[0]
    fix = take_back_fix(an, moves[0], display_path(fix_path), use_at)
    waited = an.elems.discarded.get(moves[0].id)
    if moves[0].producer and waited is not None and waited < ev.node.line:
        # ``up.wait()`` as a statement gave the array back and lost it: a second wait
        # would be an error, the fix is at that wait.
        taken = taken_back(an, moves[0], display_path(fix_path))
        fix = (
            f"the wait() at line {waited} gave it back, but its result was discarded: "
            f'bind it there ("{taken} = {holder(an, moves[0])}.wait()" at line {waited})'
        )
    if moves[0].origin:
        fix = _origin_fix(moves[0], display_path(fix_path))
    if ev.extra.startswith(CLOSURE_READ):
        shown = display_path(fix_path)
        fix = (
            f'the closure sees "{shown}" as the function left it: read the array the '
            f'transfer\'s wait() gives back instead, or take "{shown}" back before returning'
        )
    path_note = " on some path" if maybe else ""
    text = (
        f"{subject} {verb} after it was moved into {' / '.join(callees)} at "
        f"{lines_text(lines)}{where}{loop}{path_note}; {fix}"
    )
    if moves[0].via:  # not moved here: a call handed it out moved (inputs.py)
        text = f"{subject} {verb} after {moves[0].via}; {fix}"
    if moves[0].callee == YIELDED:  # ``yield buf`` dropping what send() gives back
        text = f"{subject} {verb} after {moves[0].via}"
    yield (CODE, ev.node, text, ev.dedupe())


def _origin_fix(f: Fact, moved: str) -> str:
    """The fix for a move made inside a method (``classes.py``) or inside a function
    through one of its inputs (``inputs.py``)."""
    fn = f.origin
    if f.holder:  # also a method that keeps the transfer of its parameter (inputs.py)
        return f'take it back first: "{moved} = {display_path(f.holder)}.wait()"'
    if f.param:
        rhs = f.called if f.called.endswith(")") else f"{f.called or fn[:-2]}(...)"
        if f.called == DEFERRED_THREAD:  # ``Thread(target=f, args=(buf,)).start()``
            return (
                f'{fn} takes it through its parameter "{f.param}" and runs in the thread '
                f"started here, which owns it from its start() on: fill or read it before "
                f"start(), or have the thread hand the buffer back (a queue, or an "
                f"attribute read after join()) and use that one"
            )
        if f.called == DEFERRED:  # ``pool.submit(f, buf)``: f runs in another thread
            return (
                f'{fn} takes it through its parameter "{f.param}" and runs later, in '
                f'another thread or task, which owns it from this call on: rebind "{moved}" '
                f"to the handle {fn} returns (the future's result()) once it has run, or "
                "declare the parameter nx.Consumed[...] so that the call reads as a move"
            )
        return (
            f'{fn} takes it through its parameter "{f.param}", which is not declared '
            f"nx.Consumed, and does not give it back: return the handle from {fn} and "
            f'rebind "{moved} = {rhs}", or declare the parameter '
            "nx.Consumed[...] so that the call reads as a move"
        )
    if f.free:
        return (
            f"{fn} moves it (a variable it reads from this scope) and does not take it "
            f'back: rebind "{moved}" to a new value first, or have {fn} wait for its '
            f'transfer and rebind "{moved}" there'
        )
    if f.producer:
        return f'take it back first: "{moved} = <the transfer>.wait()"'
    return f'rebind "{moved}" to a new value first ({f.callee}() owns the old one)'


def _element_message(an: Analysis, ev: Event, moves: list[Fact]) -> str:
    """A use of an element of a container whose elements were moved in a loop (or of
    the container itself, handed to a call that reads them)."""
    els = an.elems
    first = moves[0]
    container = els.moved_in.get(first.id, "")
    if not container and first.origin:
        return _ring_message(an, ev, moves)
    shown = display_path(container)
    maybe = any(a[0] != "M" for a in ev.atoms)
    callees = " / ".join(sorted({f.callee + "()" for f in moves}))
    lines = lines_text({f.line for f in moves})
    how, loop_line = els.how.get(container, ("", first.line))
    rest = els.rest_of.get(first.id, "")
    if rest:
        return _attribute_message(an, ev, moves, container, rest, (how, loop_line))
    moved_how = f' (the elements of "{shown}" were moved {how} in the loop at line {loop_line})'
    if not how:
        moved_how = f' (the elements of "{shown}" were moved in the loop at line {loop_line})'
    if ev.extra.startswith("elements|"):
        callee = ev.extra[len("elements|") :]
        verb = "may be used" if maybe else "are used"
        subject = f'The elements of "{shown}" (passed to {callee}())'
        moved = "they were moved"
    else:
        verb = "may be used" if maybe else "is used"
        name = display_path(ev.path)
        subject = f'"{name}" (an element of "{shown}")' if name != shown else f'"{name}"'
        moved = "it was moved"
    path_note = " on some path" if maybe else ""
    return (
        f"{subject} {verb} after {moved} into {callees} at {lines}{moved_how}{path_note}; "
        f"{_element_fix(an, first, container)}"
    )


def _ring_message(an: Analysis, ev: Event, moves: list[Fact]) -> str:
    """A use of an element of a container of the object whose method left *some*
    element moved, its transfer kept in an element of another attribute (a ring,
    ``classes.py``): read by a method called here, or read here."""
    first = moves[0]
    mark = next((p for p in an.moved.get(first.id, []) if p.endswith(MARK)), ev.path)
    container = marked_container(mark) or mark
    shown = display_path(container)
    if ev.extra:
        subject = f'An element of "{shown}" ({read_by(ev)})'
    else:
        subject = f'"{display_path(ev.path)}" (an element of "{shown}")'
    callees = " / ".join(sorted({f.callee + "()" for f in moves}))
    origins = " / ".join(sorted({f.origin for f in moves}))
    held = marked_container(first.holder) if first.holder.endswith(MARK) else None
    kept = f' (its transfer kept in an element of "{display_path(held)}")' if held else ""
    fix = (
        f'take it back first: "{shown}[k] = {display_path(held)}[k].wait()" for the '
        "element read (or call the method that does)"
        if held
        else 'take it back first: "<the element> = <its transfer>.wait()"'
    )
    return (
        f"{subject} may be used after {origins} moved one of its elements into "
        f"{callees} at {lines_text({f.line for f in moves})}{kept}; {fix}"
    )


def _attribute_message(
    an: Analysis,
    ev: Event,
    moves: list[Fact],
    container: str,
    rest: str,
    how: tuple[str, int],
) -> str:
    """A use of an attribute of an element (``job.host`` after ``job = jobs.popleft()``,
    ``jobs[0].host``) whose elements had that attribute moved in a loop."""
    first = moves[0]
    shown = display_path(container)
    attr = rest[1:]
    name = display_path(ev.path)
    maybe = any(a[0] != "M" for a in ev.atoms)
    callees = " / ".join(sorted({f.callee + "()" for f in moves}))
    lines = lines_text({f.line for f in moves})
    where = f" in {first.origin}" if first.origin else ""
    via = f" {how[0]}" if how[0] else ""
    verb = "may be used" if maybe else "is used"
    base = name[: -len(rest)] if name.endswith(rest) else name
    return (
        f'"{name}" (the "{attr}" of an element of "{shown}") {verb} after it was moved into '
        f'{callees} at {lines}{where} (the "{attr}" of the elements of "{shown}" was moved'
        f"{via} in the loop at line {how[1]}){' on some path' if maybe else ''}; "
        f"{_attribute_fix(an, first, base, rest)}"
    )


def _attribute_fix(an: Analysis, f: Fact, base: str, rest: str) -> str:
    """Take the attribute back from where the move left its transfer, rooted at the
    element read (``job.pending`` at the move through ``job``; ``jobs[0].pending``)."""
    name = base + rest
    moved = sorted(p for p in an.moved.get(f.id, []) if p.endswith(rest))
    holder = f.holder or an.held_in.get(f.id, "")
    if moved and holder:
        at_move = moved[0][: -len(rest)]
        if holder.startswith(at_move + "."):
            taken = base + holder[len(at_move) :]
            return f'take it back first: "{name} = {display_path(taken)}.wait()"'
    if f.param:
        return _origin_fix(f, name)
    if f.producer:
        return f'take it back first: "{name} = <the transfer>.wait()"'
    return f'rebind "{name}" to a new value first ({f.callee}() owns the old one)'


def _element_fix(an: Analysis, f: Fact, container: str) -> str:
    els = an.elems
    shown = display_path(container)
    if not f.producer:
        return f'rebind "{shown}" to new arrays first ({f.callee}() owns the old ones)'
    holder = els.holder_of(f.id, an.held_in.get(f.id))
    for chained in an.held.carriers(f.id)[1:] if holder is None else ():
        # ``downs.append(s.download(d, into=up))``: the chained transfers are kept
        holder = els.holder_of(chained, an.held_in.get(chained))
        if holder is not None:
            break
    held = display_path(holder) if holder else "<the transfers>"
    if container in els.keyed or (holder is not None and holder in els.keyed):
        rebuild = f"{shown} = {{k: t.wait() for k, t in {held}.items()}}"
        each = f"{shown}[k] = {held}[k].wait()"
    else:
        rebuild = f"{shown} = [t.wait() for t in {held}]"
        each = f"{shown}[i] = {held}[i].wait()"
    waited = els.discarded_loops.get(holder) if holder else None
    if waited is not None:
        return (
            f"the wait() at line {waited} gives them back, but its results are discarded: "
            f'rebind "{shown}" from the waits there ("{rebuild}")'
        )
    return f'take them back first: "{rebuild}" (or "{each}" for each)'
