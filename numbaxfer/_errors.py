"""Exceptions and the wording of their messages.

Every message says what happened, to which object, where it came from (file:line and
stream) and how to fix it. The mypy plugin words its reports the same way.
"""

from __future__ import annotations

__all__ = [
    "BorrowError",
    "CrossStreamError",
    "DeviceMismatchError",
    "OwnershipError",
    "PageableMemoryError",
    "StreamClosedError",
    "UnfinishedTransferError",
    "UseAfterTransferError",
]


class OwnershipError(Exception):
    """Base class: an operation broke numbaxfer's ownership rules.

    Raised before anything is enqueued or changed: after it, every handle is in the
    state it was in before the call and no data is lost.
    """


class UseAfterTransferError(OwnershipError):
    """A handle was used after a transfer took it (rule 1), or a transfer was
    completed twice.

    Fix: rebind the name from the transfer's completion, ``host = transfer.wait()``,
    and use the handle that ``wait()`` returns.
    """


class BorrowError(OwnershipError):
    """A write, move or free was attempted while the handle is lent or being written
    (rule 3), or a lent handle was used after its ``with`` block ended.
    """


class StreamClosedError(OwnershipError):
    """Work was enqueued on a closed stream, or a stream with unfinished transfers
    was closed."""


class UnfinishedTransferError(OwnershipError):
    """A scope ended (``nx.pinned`` block, ``nx.mapped`` work) while a transfer still
    uses its memory. The memory stays alive and pinned until the copy has finished."""


class CrossStreamError(OwnershipError):
    """A strict stream (``nx.stream(strict=True)``) was asked to use a device array
    whose earlier work is on another stream: numbaxfer would otherwise have inserted an
    event wait. Raised before anything is enqueued."""


class DeviceMismatchError(ValueError):
    """A launch or copy was handed a device array on a device its stream cannot reach:
    a kernel's arrays must all be on the stream's device; a device-to-device copy's
    stream must be on the source's or the destination's device. Raised before anything
    is enqueued."""


class PageableMemoryError(TypeError):
    """Ordinary (pageable) numpy memory was handed to an asynchronous copy.

    An async copy from pageable memory is either silently staged (an extra copy) or
    made synchronous by the driver; numbaxfer does neither. Pin the data first:
    ``nx.pinned_array(...)`` or ``nx.pinned_copy(array)`` (one host copy).
    """


def where(site: tuple[str, int] | None) -> str:
    """Format a call site as ``file:line``."""
    if site is None:
        return "<unknown>"
    return f"{site[0]}:{site[1]}"
