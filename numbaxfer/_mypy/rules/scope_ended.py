"""``unfinished-transfer`` (its own message): an ``nx.pinned(...)``/``nx.mapped(...)``
block ends while a transfer or mapping that took one of its handles is still pending.

At run time the block's exit raises ``UnfinishedTransferError`` (and keeps the memory
pinned until the copy has finished). It is the same mistake as a transfer never
completed, seen earlier, so it shares that code (silencing one silences both); the
message says which block and how to fix it: complete the transfer inside the block."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ..flow import Analysis, Event
from ..paths import display_path
from ..state import Message
from . import unfinished_transfer

#: The code of unfinished_transfer (the same mistake, its own message).
CODE: Final = unfinished_transfer.CODE

#: ``pinned-end``: the block ends with ``ev.path`` holding a pending transfer (or
#: mapping) of one of its handles (``ev.extra``: "<fact id> <handle>|<stack>|<line>" for
#: a pinned block entered on an exit stack: how the stack's block reads, the pin's line;
#: "<fact id> <handle>|" for a with block of its own).
EVENTS: Final = frozenset({"pinned-end"})


def messages(an: Analysis, ev: Event) -> Iterator[Message]:
    fid_text, _, rest = ev.extra.partition(" ")
    handle, _, stacked = rest.partition("|")
    label, _, pin_line = stacked.partition("|")
    fact = an.scope.facts[int(fid_text)]
    if not fact.confirmed:
        return
    name = display_path(ev.path)
    noun = "Mapping" if fact.mapping else "Transfer"
    maybe = any(a[0] not in "PE" for a in ev.atoms)
    verb = "may still be unfinished" if maybe else "is still unfinished"
    end = getattr(ev.node, "end_line", None) or ev.node.line
    block = (
        f"the {label} block that the pin at line {pin_line} was entered on"
        if label
        else ("this block")
    )
    text = (
        f'{noun} "{name}" (started at line {fact.line} by {fact.callee}() with "{handle}") '
        f"{verb} when {block} ends (line {end}){' on some path' if maybe else ''}: the "
        f'block unpins "{handle}"\'s memory, so its exit raises UnfinishedTransferError. '
        f'Complete it inside the block: "{handle} = {name}.wait()"'
    )
    yield (CODE, ev.node, text, ev.dedupe())
