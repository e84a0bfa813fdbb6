"""Staging buffers for ``Stream.upload_staged``: pinned memory that numbaxfer owns,
reused once the copy that read it has finished.

A staged upload costs one host copy (the pageable data into a staging buffer) on top of
the DMA, which is why it has its own name: ``upload`` never copies on the host.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from ._backend import Backend

__all__ = ["StagingArea", "staging_area"]

_MIN_BYTES: Final = 64 << 10
#: Free staging memory kept for reuse per backend; more is released.
_KEEP_BYTES: Final = 64 << 20


class StagingArea:
    """Pinned byte buffers of one backend: free ones, and busy ones with the event of
    the copy that reads them. Callers hold ``STATE_LOCK``."""

    __slots__ = ("_backend", "_busy", "_free")

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._free: list[NDArray[np.uint8]] = []
        self._busy: list[tuple[Any, NDArray[np.uint8]]] = []

    def take(self, nbytes: int) -> NDArray[np.uint8]:
        """A free pinned buffer of at least ``nbytes`` (allocated if none is free)."""
        self._reap()
        fits = [b for b in self._free if b.nbytes >= nbytes]
        if fits:
            buf = min(fits, key=lambda b: b.nbytes)
            self._free.remove(buf)
            return buf
        size = max(_MIN_BYTES, 1 << (nbytes - 1).bit_length())
        return self._backend.alloc_pinned((size,), np.dtype(np.uint8))

    def busy(self, event: Any, buf: NDArray[np.uint8]) -> None:
        """``buf`` is read by the copy ``event`` captures: reuse it only after."""
        self._busy.append((event, buf))

    def give_back(self, buf: NDArray[np.uint8]) -> None:
        """``buf`` was taken but not used (the enqueue failed before the copy)."""
        self._free.append(buf)

    def _reap(self) -> None:
        done = [(e, b) for e, b in self._busy if self._backend.query(e)]
        if done:
            self._busy = [(e, b) for e, b in self._busy if not any(b is d for _, d in done)]
            for event, buf in done:
                self._backend.release_event(event)
                self._free.append(buf)
        kept = 0
        keep = []
        for buf in sorted(self._free, key=lambda b: b.nbytes):
            if kept + buf.nbytes <= _KEEP_BYTES:
                keep.append(buf)
                kept += buf.nbytes
        self._free = keep

    def __len__(self) -> int:
        return len(self._free) + len(self._busy)


_areas: Final[dict[int, tuple[Backend, StagingArea]]] = {}


def staging_area(backend: Backend) -> StagingArea:
    entry = _areas.get(id(backend))
    if entry is None or entry[0] is not backend:
        entry = _areas[id(backend)] = (backend, StagingArea(backend))
    return entry[1]
