"""Memory kept alive past its last handle, until the device work that uses it is done.

Two things live here, below every handle module:

* the keep-alive registry: host buffers of transfers dropped before completion, and
  device arrays freed while work on them was pending, are held (reachable from no
  handle, so unusable) until an event recorded after that work has completed;
* :class:`InPlacePin`: what the transfers of memory pinned in place by ``nx.pinned``
  report to, so that the block can tell at exit whether a copy still uses it.

Imports nothing above the backend protocol.
"""

from __future__ import annotations

import atexit
import contextlib
from typing import Any, Final

from ._backend import Backend

__all__ = ["InPlacePin", "keep_alive", "orphan_count", "reap_orphans"]

# (backend, event, what to hold) for each kept-alive buffer.
_orphans: Final[list[tuple[Backend, Any, Any]]] = []


def keep_alive(backend: Backend, event: Any, obj: Any) -> None:
    """Hold ``obj`` (host or device memory) until ``event`` has completed."""
    _orphans.append((backend, event, obj))


def reap_orphans() -> None:
    """Release the kept-alive buffers whose copies have finished. Never blocks."""
    if _orphans:
        _orphans[:] = [o for o in _orphans if not o[0].query(o[1])]


def orphan_count() -> int:
    """How many buffers are still kept alive (for tests and diagnostics)."""
    reap_orphans()
    return len(_orphans)


def has_orphans() -> bool:
    return bool(_orphans)


@atexit.register
def _drain_orphans() -> None:
    for backend, event, _ in _orphans:
        with contextlib.suppress(Exception):  # the context may already be gone at exit
            backend.sync_event(event)
    _orphans.clear()


class InPlacePin:
    """The pinning of one ``nx.pinned`` block, as its transfers see it.

    ``inflight`` maps each transfer that holds the memory to its event and description;
    a transfer removes itself when it completes. ``pin`` is the backend's pin object:
    the memory stays page-locked while it is referenced.
    """

    __slots__ = (
        "closed",
        "current",
        "dropped",
        "dropped_fences",
        "ended",
        "inflight",
        "mappings",
        "pin",
        "site",
    )

    def __init__(self, site: tuple[str, int]) -> None:
        self.site = site
        self.pin: Any = None
        self.closed = False
        #: The handle that owns the memory now (None while a transfer holds it).
        self.current: Any = None
        self.inflight: dict[int, tuple[Any, str]] = {}
        #: Of those, the transfers garbage-collected without completion.
        self.dropped: set[int] = set()
        #: Why handles of this memory expire once the block has ended.
        self.ended: Any = None
        #: Mappings of this memory (``nx.mapped``) not yet waited for: id -> weak ref.
        self.mappings: dict[int, Any] = {}
        #: Events of mappings dropped without wait(): their kernels may still run.
        self.dropped_fences: list[Any] = []

    def mapping_done(self, key: int, handle: Any) -> None:
        """A mapping of this memory completed and returned it as ``handle``."""
        self.mappings.pop(key, None)
        self.give_back(-1, handle)

    def give_back(self, number: int, handle: Any) -> None:
        """Transfer ``number`` completed and returned the memory as ``handle``."""
        self.inflight.pop(number, None)
        handle._scope = self
        if self.closed:
            handle._flag.expire(self.ended)
        else:
            self.current = handle
