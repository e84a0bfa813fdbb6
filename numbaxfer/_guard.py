"""Guard mode: the CPU is locked out of host memory that a transfer owns.

With ``NUMBAXFER_GUARD=1`` (or ``nx.set_guard(True)``) every transfer protects the
pages of the host memory it moved, with ``mprotect``: an upload's source read-only
(reading along with the DMA is harmless), a download's destination, a pipeline's arrays
and a mapped array under kernels inaccessible. Completion (``wait()``, ``await``,
``mapping.wait()``) lifts the protection before ownership comes back; a transfer or
mapping dropped without completion keeps its pages protected until the keep-alive that
holds its memory is reaped (its copy has finished). A stray access through a numpy view
kept past a move is then a SIGSEGV at the offending line, which ``faulthandler``
(enabled with guard mode) prints.

Pages are the unit: only the pages wholly inside an array are protected. Memory that
numbaxfer allocates in guard mode on the emulator and the simulator is ``mmap``-ed,
page-aligned and page-sized; ``cuda.pinned_array`` memory is page-aligned. Arrays pinned
in place (``nx.pinned``) and parts made by ``nx.split`` may share their first and last
page with other memory: those edge pages stay unprotected.

Backends whose copies and kernels run on the CPU (the emulator, numba's simulator)
run them with the protection of the memory they touch lifted (:func:`lifted`).

Everything here is a no-op while guard mode is off, except :func:`lifted`'s one check.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import faulthandler
import mmap
import os
import sys
import threading
import weakref
from collections.abc import Callable, Iterable
from typing import Any, Final, Literal, TypeVar

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "GUARD_ENV",
    "Protection",
    "alloc_pages",
    "guard_enabled",
    "lifted",
    "protect",
    "set_guard",
]

#: The environment variable that turns guard mode on for the process.
GUARD_ENV: Final = "NUMBAXFER_GUARD"
PAGE: Final = mmap.PAGESIZE

PROT_NONE: Final = 0
PROT_READ: Final = mmap.PROT_READ
PROT_RW: Final = mmap.PROT_READ | mmap.PROT_WRITE

_R = TypeVar("_R")

_enabled = os.environ.get(GUARD_ENV, "").strip().lower() not in ("", "0", "false", "no", "off")
_lock: Final = threading.RLock()
#: The protections in force: page-range start address -> its Protection (weakly: a
#: protection garbage-collected with what held it lifts itself).
_active: Final[weakref.WeakValueDictionary[int, Protection]] = weakref.WeakValueDictionary()
_mprotect: Any = None


def _libc_mprotect() -> Any:
    global _mprotect
    if _mprotect is None:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        fn = libc.mprotect
        fn.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        fn.restype = ctypes.c_int
        _mprotect = fn
    return _mprotect


def _set(addr: int, size: int, prot: int) -> None:
    if _libc_mprotect()(addr, size, prot) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"numbaxfer guard mode: mprotect({addr:#x}, {size}) failed")


def guard_enabled() -> bool:
    """Is guard mode on (``NUMBAXFER_GUARD=1`` or ``nx.set_guard(True)``)?"""
    return _enabled


def set_guard(on: bool) -> bool:
    """Turn guard mode on or off for transfers started from now on; returns the previous
    setting. Protections already in force stay until their transfers complete. Arrays
    allocated while it is off may not be page-aligned: only their inner pages are
    protected. Turning it on enables ``faulthandler`` (stderr)."""
    global _enabled
    previous, _enabled = _enabled, bool(on)
    if _enabled:
        _enable_faulthandler()
    return previous


def _enable_faulthandler() -> None:
    if not faulthandler.is_enabled():
        try:
            faulthandler.enable(file=sys.stderr, all_threads=True)
        except (AttributeError, ValueError, OSError):  # no usable stderr (embedded, closed)
            faulthandler.enable(file=sys.__stderr__ or 2, all_threads=True)


class _Pages(mmap.mmap):
    """Anonymous pages that know the array made over them: numpy collapses the base of
    every view to this object, and ``base`` leads on to that array, so that a walk up
    the bases from any view (``owned_by_numbaxfer``) finds the allocated array. Weakly:
    the array already holds the pages."""

    _owner: weakref.ref[NDArray[Any]] | None = None

    @property
    def base(self) -> NDArray[Any] | None:
        return None if self._owner is None else self._owner()


def alloc_pages(
    shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
) -> NDArray[Any]:
    """Zeroed host memory of its own pages (anonymous ``mmap``, page-rounded) as numpy:
    what the CPU backends allocate in guard mode, so that every page can be protected."""
    count = 1
    for n in shape:
        count *= n
    nbytes = max(count * dtype.itemsize, 1)
    area = _Pages(-1, -(-nbytes // PAGE) * PAGE)
    array: NDArray[Any] = np.ndarray(shape, dtype=dtype, buffer=area, order=order)
    area._owner = weakref.ref(array)
    return array


def _span(buf: NDArray[Any]) -> tuple[int, int]:
    """The byte range [lo, hi) of ``buf``'s memory."""
    lo = int(buf.__array_interface__["data"][0])
    if buf.flags.c_contiguous or buf.flags.f_contiguous:
        return lo, lo + buf.nbytes
    low = high = lo
    for n, stride in zip(buf.shape, buf.strides, strict=True):
        if stride < 0:
            low += (n - 1) * stride
        else:
            high += (n - 1) * stride
    return low, high + buf.itemsize


class Protection:
    """The protection of the whole pages inside one array, while a transfer owns it.

    Holds the array (so the memory outlives the protection); :meth:`release` lifts it
    (idempotent), and so does garbage collection: a kept-alive transfer's protection
    ends when the keep-alive drops it, after its copy has finished.
    """

    __slots__ = ("__weakref__", "active", "addr", "buf", "prot", "size", "what")

    def __init__(self, buf: NDArray[Any], addr: int, size: int, prot: int, what: str) -> None:
        self.buf = buf
        self.addr, self.size, self.prot, self.what = addr, size, prot, what
        self.active = False

    def __repr__(self) -> str:
        mode = {PROT_NONE: "no access", PROT_READ: "read-only"}.get(self.prot, "?")
        state = "active" if self.active else "lifted"
        return f"<Protection of {self.size // PAGE} page(s) of {self.what}: {mode}, {state}>"

    def release(self) -> None:
        """Lift this protection (the pages become readable and writable again)."""
        with _lock:
            if not self.active:
                return
            self.active = False
            if _active.get(self.addr) is self:
                del _active[self.addr]
            _set(self.addr, self.size, PROT_RW)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at shutdown libc or the lock may be gone
            self.release()


def protect(buf: NDArray[Any], writes: bool, what: str) -> Protection | None:
    """Protect the pages wholly inside ``buf``: no access if the transfer ``writes``
    it (a download, a mapping), read-only otherwise. None if guard mode is off or no
    whole page lies inside. A protection already in force on the same pages (a chained
    transfer taking the buffer over) is superseded: the new one decides."""
    if not _enabled or buf.size == 0:
        return None
    lo, hi = _span(buf)
    first, last = -(-lo // PAGE) * PAGE, hi // PAGE * PAGE
    if last <= first:
        return None
    prot = PROT_NONE if writes else PROT_READ
    token = Protection(buf, first, last - first, prot, what)
    with _lock:
        for other in _overlapping(first, last) if _active else ():
            other.active = False  # superseded: its release lifts nothing
            _active.pop(other.addr, None)
        _set(first, last - first, prot)
        token.active = True
        _active[first] = token
    return token


def _overlapping(lo: int, hi: int) -> list[Protection]:
    return [p for p in _active.values() if p.addr < hi and lo < p.addr + p.size]


def lifted(arrays: Iterable[Any], run: Callable[[], _R], *, writes: bool = True) -> _R:
    """Run ``run`` (a CPU backend's copy or kernel) with the protection of the memory of
    ``arrays`` (numpy arrays, or objects with a numpy ``_ary``) lifted, then put back.
    ``writes=False`` (``run`` only reads them): read-only pages are left as they are."""
    if not _active:
        return run()
    with _lock:
        hit: list[Protection] = []
        for obj in arrays:
            ary = obj if isinstance(obj, np.ndarray) else getattr(obj, "_ary", None)
            if isinstance(ary, np.ndarray) and ary.size:
                lo, hi = _span(ary)
                hit.extend(
                    p
                    for p in _overlapping(lo, hi)
                    if p not in hit and (writes or p.prot == PROT_NONE)
                )
        for p in hit:
            _set(p.addr, p.size, PROT_RW)
        try:
            return run()
        finally:
            for p in hit:
                if p.active:
                    _set(p.addr, p.size, p.prot)


def active_count() -> int:
    """How many protections are in force (for tests and diagnostics)."""
    return len(_active)


if _enabled:
    _enable_faulthandler()
