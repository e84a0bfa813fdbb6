"""The wording numbaxfer's two checkers share: the runtime's errors and the mypy
plugin's reports say the same thing the same way. Plain strings; imports nothing (the
plugin may import this module, and nothing else of the library)."""

from typing import Final

__all__ = ["ENDS", "LEND_ENDED_FIX", "TAKE_BACK_FIX", "sentence"]

#: How to make a moved buffer usable again (``{buffer}``, ``{transfer}``: names).
TAKE_BACK_FIX: Final = "take it back from the transfer first, `{buffer} = {transfer}.wait()`"

#: What to do with a lent handle whose block has ended (``{owner}``: ``' "host"'`` or '').
LEND_ENDED_FIX: Final = (
    "a lent handle is valid only inside its block: lend again, or use the owner{owner}"
)

#: How a handle that went one of these ways is spoken of (by the runtime's borrow flag
#: and by the plugin).
ENDS: Final = {
    "free": "it was freed at {site}. Allocate a new array.",
    "give": (
        "it was given back to its PinnedPool at {site}. Take a buffer from the pool "
        "(`buf = pool.take()`) and use that."
    ),
    "mapping-end": (
        "it was the device view of a mapping that ended at {site} (mapping.wait()). Map the "
        "array again (`mapping = stream.map(host)`) and use the new mapping's device."
    ),
    "split": (
        "it was split into parts at {site}; while they live it may not be used. Join them "
        "first: `whole = nx.join(parts)`, then use `whole`."
    ),
    "join": (
        "it was a part, joined back into the whole array at {site}. Use the array that "
        "nx.join() returned, or split it again."
    ),
    "expire-pinned": (
        "it was the handle of an nx.pinned() block that ended at {site}; the memory is "
        "unpinned. Use the numpy array itself after the block, or pin it again."
    ),
}


def sentence(text: str) -> str:
    """``text`` with a capital first letter (a phrase above, starting a sentence)."""
    return text[:1].upper() + text[1:]
