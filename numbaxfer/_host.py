"""Page-locked host arrays: ``PinnedArray[Cap, DT]``."""

from __future__ import annotations

import weakref
from typing import Any, Final, Generic, Literal, TypeVar, overload

import numpy as np
from numpy.typing import DTypeLike, NDArray

from ._backend import Backend, get_backend
from ._lifetime import InPlacePin
from ._ownership import (
    STATE_LOCK,
    BorrowFlag,
    LendScope,
    Lent,
    MoveRecord,
    Owned,
    Unique,
    WriteScope,
    caller_site,
)
from ._util import check_dtype, label, normalise_shape

__all__ = ["PinnedArray", "pinned_array", "pinned_copy", "read_only_view"]

Cap = TypeVar("Cap", bound=Lent, covariant=True)
DT = TypeVar("DT", bound=np.generic)


#: Every buffer numbaxfer allocated as pinned memory (weakly): nx.pinned() refuses memory
#: inside one, which already has its owner.
_allocated: Final[weakref.WeakValueDictionary[int, Any]] = weakref.WeakValueDictionary()


def remember_pinned(buf: NDArray[Any]) -> None:
    _allocated[id(buf)] = buf


def owned_by_numbaxfer(array: NDArray[Any]) -> bool:
    """Is ``array`` (or an array it views) memory of a numbaxfer pinned array?"""
    base: Any = array
    while base is not None:
        if _allocated.get(id(base)) is base:
            return True
        base = getattr(base, "base", None)
    return False


def layout(buf: NDArray[Any]) -> Literal["C", "F"]:
    """The memory order of a contiguous array (1-D and size-1 arrays count as C)."""
    return "F" if buf.flags.f_contiguous and not buf.flags.c_contiguous else "C"


def read_only_view(buf: NDArray[Any]) -> NDArray[Any]:
    """A view of contiguous ``buf`` (C or Fortran order) whose base buffer is read-only,
    so that neither it nor any view derived from it can be made writable
    (``setflags(write=True)`` raises)."""
    order = layout(buf)
    flat = np.frombuffer(buf.reshape(-1, order=order).data.toreadonly(), dtype=buf.dtype)
    return flat.reshape(buf.shape, order=order)


class PinnedArray(Unique, Generic[Cap, DT]):
    """A page-locked host array with an ownership capability.

    ``PinnedArray[Owned, DT]`` may be read, written (inside ``write()``), lent, moved
    into a transfer and freed. ``PinnedArray[Lent, DT]`` (from ``lend()``) may only be
    read, and only inside the ``with`` block that lent it.

    An asynchronous copy (``Stream.upload``/``Stream.download``) *moves* the handle:
    every later use of it raises :class:`~numbaxfer.UseAfterTransferError`; the
    transfer's ``wait()`` returns a fresh owned handle to the same memory once the copy
    has finished. Create one with :func:`pinned_array` or :func:`pinned_copy`; handles
    refuse ``copy``/``pickle`` (a copy would be a second owner).
    """

    __slots__ = ("__weakref__", "_backend", "_buf", "_flag", "_mem", "_part", "_ro", "_scope")

    _backend: Backend
    _buf: NDArray[DT]
    _ro: NDArray[DT]  # the same memory through a read-only base: what read() hands out
    _flag: BorrowFlag
    _mem: Any  # what the backend's copies take (see Backend.host_memory)
    #: For memory pinned in place by ``nx.pinned(array)``: that block's pinning.
    _scope: InPlacePin | None
    #: For a part made by ``nx.split``: (its split, its index there).
    _part: tuple[Any, int] | None

    def __init__(self) -> None:
        raise TypeError(
            "PinnedArray is not created directly: use nx.pinned_array(shape, dtype) or "
            "nx.pinned_copy(array)."
        )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Final to users (a subclass could override the checks); MappedArray is ours.
        if not cls.__module__.startswith("numbaxfer."):
            raise TypeError(f"nx.PinnedArray may not be subclassed ({cls.__qualname__})")
        super().__init_subclass__(**kwargs)

    @classmethod
    def _adopt(
        cls,
        backend: Backend,
        buf: NDArray[Any],
        label: str,
        mem: Any = None,
        lent_from: PinnedArray[Any, Any] | None = None,
        lent_at: tuple[str, int] | None = None,
    ) -> PinnedArray[Any, Any]:
        self = object.__new__(cls)
        self._backend = backend
        if lent_from is None:
            self._buf = buf
            self._ro = read_only_view(buf)
            self._flag = BorrowFlag(label)
            self._scope = None
            self._part = None
        else:  # a lent handle sees the memory read-only only
            self._buf = self._ro = lent_from._ro
            self._flag = BorrowFlag(label, lent_at, lent_from._flag)
            self._scope = lent_from._scope
            self._part = None
        self._mem = backend.host_memory(buf) if mem is None else mem
        return self

    def _reborn(self) -> PinnedArray[Owned, DT]:
        """A new owned handle of the same class over the same memory (what a completed
        transfer hands back). The caller retires this one."""
        new: Any = object.__new__(type(self))
        new._backend = self._backend
        new._buf, new._ro, new._mem = self._buf, self._ro, self._mem
        new._flag = BorrowFlag(self._flag.name)
        new._scope = self._scope
        new._part = self._part
        self._copy_extras(new)
        return new  # type: ignore[no-any-return]

    def _copy_extras(self, new: PinnedArray[Any, Any]) -> None:
        """Subclasses copy the fields they add (see MappedArray)."""

    # -- metadata (allowed in any state: it touches no memory) ---------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._buf.shape

    @property
    def dtype(self) -> np.dtype[DT]:
        return self._buf.dtype

    @property
    def size(self) -> int:
        return self._buf.size

    @property
    def nbytes(self) -> int:
        return self._buf.nbytes

    @property
    def label(self) -> str:
        """The name numbaxfer uses for this array in error messages."""
        return self._flag.label

    def __repr__(self) -> str:
        return f"<{self._flag.label}: {self._flag.state()}>"

    # -- access --------------------------------------------------------------
    def read(self) -> NDArray[DT]:
        """A read-only numpy view of the data.

        Raises :class:`UseAfterTransferError` if the array was moved into a transfer
        that has not been completed, :class:`BorrowError` inside ``write()``. The view's
        base buffer is read-only, so it cannot be made writable. It is plain numpy: keep
        it past a later move and it may show stale data (the known hole; see the README).
        """
        self._flag.check_read("read()")
        view: NDArray[DT] = self._ro.view()
        return view

    def write(self: PinnedArray[Owned, DT]) -> WriteScope[NDArray[DT]]:
        """``with arr.write() as a:`` gives a writable numpy view for the block.

        Owned only. While the block runs the array may not be read through the handle,
        lent or moved; at block exit the view is made read-only, so a reference kept
        past the block cannot write later (unless the program deliberately calls
        ``setflags(write=True)`` on it: see the README's known hole). The borrow starts
        when the block is entered; the call only checks.
        """
        site = caller_site()
        self._flag.check_writable("write()", site)
        return WriteScope(self._flag, self._buf.view(), site)

    def lend(self) -> LendScope[PinnedArray[Lent, DT]]:
        """``with arr.lend() as view:`` gives a ``PinnedArray[Lent, DT]`` for the block.

        While any lend lives (lends of lent handles included) the owner may be read but
        not written, moved or freed; the lent handle may be read (and lent again) but
        expires at block exit.
        """
        site = caller_site()
        self._flag.check_read("lend()")
        lent: PinnedArray[Lent, DT] = type(self)._adopt(
            self._backend, self._buf, self._flag.name, self._mem, self, site
        )
        self._copy_extras(lent)
        return LendScope(self._flag, site, lent, lent._flag)

    def free(self: PinnedArray[Owned, DT]) -> None:
        """Release the page-locked memory now (otherwise garbage collection does).

        Refused while lent, in a write block or moved; afterwards every use raises.
        """
        site = caller_site()
        with STATE_LOCK:
            self._flag.move(MoveRecord("free", "", site))
            # Drop the memory; keep shape and dtype (a zero-byte broadcast) so that later
            # uses report the free, not a shape mismatch.
            self._buf = self._ro = np.broadcast_to(
                np.empty((), dtype=self._buf.dtype), self._buf.shape
            )
            self._mem = None


@overload
def pinned_array(
    shape: int | tuple[int, ...], dtype: type[DT], *, order: Literal["C", "F"] = ...
) -> PinnedArray[Owned, DT]: ...
@overload
def pinned_array(
    shape: int | tuple[int, ...], dtype: np.dtype[DT], *, order: Literal["C", "F"] = ...
) -> PinnedArray[Owned, DT]: ...
@overload
def pinned_array(
    shape: int | tuple[int, ...], dtype: DTypeLike = ..., *, order: Literal["C", "F"] = ...
) -> PinnedArray[Owned, Any]: ...
def pinned_array(
    shape: int | tuple[int, ...], dtype: DTypeLike = np.float64, *, order: Literal["C", "F"] = "C"
) -> Any:
    """Allocate a page-locked host array (contents undefined), owned by the caller.

    Page-locked memory is what lets a copy run asynchronously; allocating it is slow
    (milliseconds for large arrays), so allocate once and reuse. Shapes have at least one
    element; dtypes are plain numbers or bool.
    """
    dims = normalise_shape(shape, "nx.pinned_array()")
    dt = check_dtype(dtype, "nx.pinned_array()")
    if order not in ("C", "F"):
        raise ValueError(f"nx.pinned_array(): order is 'C' or 'F', not {order!r}")
    backend = get_backend()
    buf = backend.alloc_pinned(dims, dt, order)
    remember_pinned(buf)
    return PinnedArray._adopt(backend, buf, label("PinnedArray", buf.shape, buf.dtype))


def pinned_copy(array: NDArray[DT]) -> PinnedArray[Owned, DT]:
    """Copy an existing numpy array into new page-locked memory (one host copy).

    The result has ``array``'s memory order if that is Fortran, C otherwise, and is
    owned by the caller; ``array`` is not touched again.
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"pinned_copy() takes a numpy array, not {type(array).__name__}")
    dims = normalise_shape(array.shape, "nx.pinned_copy()")
    dt = check_dtype(array.dtype, "nx.pinned_copy()")
    backend = get_backend()
    buf = backend.alloc_pinned(dims, dt, layout(array) if array.flags.f_contiguous else "C")
    remember_pinned(buf)
    np.copyto(buf, array)
    return PinnedArray._adopt(backend, buf, label("PinnedArray", buf.shape, buf.dtype))
