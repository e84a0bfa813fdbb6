"""The reference model for the patterns real numba code uses (patterns_programs.py):
``nx.Pipeline``, ``Stream.map`` / ``Mapping``, ``nx.PinnedPool``, ``nx.pinned()``
scopes, lends of lends, and thread pairs.

It extends model.py (same flags, same error lists, first error first) with what those
patterns add, written as the specification of the behaviour decided for issue 10
(notes/issue10-decisions.md), not of today's code where the two differ:

* a lend of a lend keeps the ROOT owner locked while it lives, even after the middle
  lend's block has ended;
* a ``Pipeline.map`` whose step raises leaves ``src`` and ``into`` usable again (the
  same handles); ``step=None`` is a TypeError before anything moves;
* a MappedArray that went through ``upload``/``download`` comes back mapped;
* ``mapping.device.free()`` is a BorrowError while the mapping lives;
* a Mapping dropped without ``wait()`` gives a ResourceWarning;
* an ``nx.pinned()`` block whose transfer was dropped ends with UnfinishedTransferError;
  pinning memory that an open ``nx.pinned()`` block already pins is a BorrowError;
* ``pool.give(numpy array)`` is a TypeError;
* ``read()`` views (and ``racy_peek()``) cannot be made writable again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

from . import model as m
from .model import ErrorType, Handle, Xfer


@dataclass(eq=False)
class HostBuf(m.Buffer):
    """A host allocation: ``pinned`` (pinned_array), ``mapped`` (mapped_array), ``pool``
    (one of a PinnedPool's buffers) or ``scoped`` (a numpy array pinned in place)."""

    kind: str = "pinned"
    pool: PoolM | None = None
    scope: ScopeM | None = None
    #: The contents are not defined (e.g. ``into`` of a pipeline map whose step failed,
    #: until the program writes it again): not compared.
    unknown: bool = False


@dataclass(eq=False)
class PipeM:
    name: str
    real: list[Any]
    chunk: int
    slots: int
    closed: bool = False


@dataclass(eq=False)
class RunM:
    name: str
    pipe: PipeM
    real: list[Any]
    src: Handle
    dst: Handle
    completed: bool = False


@dataclass(eq=False)
class MapM:
    name: str
    real: list[Any]
    host: Handle  # the moved MappedArray handle
    device: Handle  # ``mapping.device``: its buf IS the host buffer
    completed: bool = False
    dropped: bool = False


@dataclass(eq=False)
class PoolM:
    name: str
    real: list[Any]
    bufs: list[HostBuf] = field(default_factory=list)
    free: list[HostBuf] = field(default_factory=list)  # in the pool's order
    recycled: list[Xfer] = field(default_factory=list)


@dataclass(eq=False)
class ScopeM:
    name: str
    arrays: list[NDArray[np.float64]]  # the numpy array pinned, in each world
    scopes: list[Any]  # the nx.pinned() scope objects
    buf: HostBuf
    open: bool = True


def host_buf(h: Handle) -> HostBuf:
    assert isinstance(h.buf, HostBuf), h
    return h.buf


def root(h: Handle) -> Handle:
    """The owner at the top of a chain of lends."""
    while h.owner is not None:
        h = h.owner
    return h


# -- errors -----------------------------------------------------------------------------
def pipeline_map(pipe: PipeM, src: Handle, dst: Handle) -> list[ErrorType]:
    """``pipe.map(src, into=dst, step=...)``: a closed pipeline, then sizes (the same,
    a multiple of chunk), then src and into the same memory (two handles of one
    buffer, too, unless it was freed), then ``src`` and ``into`` may move (parameter
    order, as everywhere)."""
    sizes = src.shape != dst.shape or src.shape[0] % pipe.chunk
    assert src.buf is not None
    same = src is dst or (src.buf is dst.buf and not src.buf.freed)
    return m.errors(
        nx.StreamClosedError if pipe.closed else None,
        ValueError if sizes else None,
        ValueError if same else None,
        src.flag.exclusive(),
        dst.flag.exclusive(),
    )


def pipeline_close(pipe: PipeM, runs: list[RunM]) -> list[ErrorType]:
    """Refused while a run on it is not completed (its first stream holds the run's
    transfers); closing twice does nothing."""
    busy = any(r.pipe is pipe and not r.completed for r in runs)
    return m.errors(nx.StreamClosedError if busy and not pipe.closed else None)


def stream_map(s: Handle, h: Handle) -> list[ErrorType]:
    """``s.map(h)``: a MappedArray (kind first), an open stream, then ``h`` moves."""
    mapped = host_buf(h).kind == "mapped" and h.owner is None
    return m.errors(None if mapped else TypeError, m.stream_open(s), h.flag.exclusive())


def mapping_free_device(mp: MapM) -> list[ErrorType]:
    """The mapping owns its device array: freeing it is refused (BorrowError); after
    ``wait()`` it is dead (UseAfterTransferError)."""
    return m.errors(mp.device.flag.dead(), nx.BorrowError)


def completed_twice(done: bool) -> list[ErrorType]:
    return m.errors(nx.UseAfterTransferError if done else None)


def pool_give(pool: PoolM, h: Handle) -> list[ErrorType]:
    """Membership first (ValueError), then ``h`` moves."""
    member = host_buf(h).pool is pool
    return m.errors(None if member else ValueError, h.flag.exclusive())


def pool_recycle(pool: PoolM, t: Xfer) -> list[ErrorType]:
    """An unfinished transfer of one of this pool's buffers."""
    assert t.moved is not None
    member = host_buf(t.moved).pool is pool
    return m.errors(TypeError if t.completed else None, None if member else ValueError)


def scope_exit(pending: bool) -> list[ErrorType]:
    return m.errors(nx.UnfinishedTransferError if pending else None)


# -- kernels: the numpy meaning of the kernels in patterns_programs.py --------------------
def affine(src: NDArray[np.float64]) -> NDArray[np.float64]:
    return 2.0 * src + 1.0
