"""Page-locked host arrays: ``PinnedArray[Cap, DT]``."""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

import numpy as np
from numpy.typing import DTypeLike, NDArray

from ._backend import Backend, get_backend
from ._lifetime import InPlacePin
from ._ownership import BorrowFlag, LendScope, Lent, MoveRecord, Owned, WriteScope, caller_site
from ._util import label, normalise_shape

__all__ = ["PinnedArray", "pinned_array", "pinned_copy"]

Cap = TypeVar("Cap", bound=Lent, covariant=True)
DT = TypeVar("DT", bound=np.generic)


class PinnedArray(Generic[Cap, DT]):
    """A page-locked host array with an ownership capability.

    ``PinnedArray[Owned, DT]`` may be read, written (inside ``write()``), lent, moved
    into a transfer and freed. ``PinnedArray[Lent, DT]`` (from ``lend()``) may only be
    read, and only inside the ``with`` block that lent it.

    An asynchronous copy (``Stream.upload``/``Stream.download``) *moves* the handle:
    every later use of it raises :class:`~numbaxfer.UseAfterTransferError`; the
    transfer's ``wait()`` returns a fresh owned handle to the same memory once the copy
    has finished. Create one with :func:`pinned_array` or :func:`pinned_copy`.
    """

    __slots__ = ("__weakref__", "_backend", "_buf", "_flag", "_mem", "_owner", "_scope")

    _backend: Backend
    _buf: NDArray[DT]
    _flag: BorrowFlag
    _mem: Any  # what the backend's copies take (see Backend.host_memory)
    _owner: PinnedArray[Any, DT] | None
    #: For memory pinned in place by ``nx.pinned(array)``: that block's pinning.
    _scope: InPlacePin | None

    def __init__(self) -> None:
        raise TypeError(
            "PinnedArray is not created directly: use nx.pinned_array(shape, dtype) or "
            "nx.pinned_copy(array)."
        )

    @classmethod
    def _adopt(
        cls,
        backend: Backend,
        buf: NDArray[Any],
        label: str,
        owner: PinnedArray[Any, Any] | None,
        mem: Any = None,
        lent_at: tuple[str, int] | None = None,
    ) -> PinnedArray[Any, Any]:
        self = object.__new__(cls)
        self._backend = backend
        self._buf = buf
        if mem is None:
            mem = backend.host_memory(buf)
        self._mem = mem
        self._flag = BorrowFlag(label, lent_at)
        self._owner = owner
        self._scope = None if owner is None else owner._scope
        return self

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
        that has not been completed, :class:`BorrowError` inside ``write()``. The view is
        plain numpy: keep it past a later move and it may show stale data (the known
        hole; see the README).
        """
        self._flag.check_read("read()")
        view: NDArray[DT] = self._buf.view()
        view.setflags(write=False)
        return view

    def write(self: PinnedArray[Owned, DT]) -> WriteScope[NDArray[DT]]:
        """``with arr.write() as a:`` gives a writable numpy view for the block.

        Owned only. While the block runs the array may not be read through the handle,
        lent or moved; at block exit the view is made read-only, so a reference kept
        past the block cannot write later.
        """
        site = caller_site()
        self._flag.begin_write(site)
        return WriteScope(self._flag, self._buf.view())

    def lend(self) -> LendScope[PinnedArray[Lent, DT]]:
        """``with arr.lend() as view:`` gives a ``PinnedArray[Lent, DT]`` for the block.

        While any lend lives the owner may be read but not written, moved or freed; the
        lent handle may be read (and lent again) but expires at block exit.
        """
        site = caller_site()
        self._flag.begin_lend(site)
        lent: PinnedArray[Lent, DT] = PinnedArray._adopt(
            self._backend, self._buf, self._flag.name, self, self._mem, site
        )
        return LendScope(self._flag, site, lent, lent._flag)

    def free(self: PinnedArray[Owned, DT]) -> None:
        """Release the page-locked memory now (otherwise garbage collection does).

        Refused while lent, in a write block or moved; afterwards every use raises.
        """
        self._flag.move(MoveRecord("free", "", caller_site()))
        # Drop the memory; keep shape and dtype (a zero-byte broadcast) so that later
        # uses report the free, not a shape mismatch.
        self._buf = np.broadcast_to(np.empty((), dtype=self._buf.dtype), self._buf.shape)
        self._mem = None


@overload
def pinned_array(shape: int | tuple[int, ...], dtype: type[DT]) -> PinnedArray[Owned, DT]: ...
@overload
def pinned_array(shape: int | tuple[int, ...], dtype: np.dtype[DT]) -> PinnedArray[Owned, DT]: ...
@overload
def pinned_array(
    shape: int | tuple[int, ...], dtype: DTypeLike = ...
) -> PinnedArray[Owned, Any]: ...
def pinned_array(shape: int | tuple[int, ...], dtype: DTypeLike = np.float64) -> Any:
    """Allocate a page-locked host array (contents undefined), owned by the caller.

    Page-locked memory is what lets a copy run asynchronously; allocating it is slow
    (milliseconds for large arrays), so allocate once and reuse.
    """
    backend = get_backend()
    buf = backend.alloc_pinned(normalise_shape(shape), np.dtype(dtype))
    return PinnedArray._adopt(backend, buf, label("PinnedArray", buf.shape, buf.dtype), None)


def pinned_copy(array: NDArray[DT]) -> PinnedArray[Owned, DT]:
    """Copy an existing numpy array into new page-locked memory (one host copy).

    The result is C-contiguous and owned by the caller; ``array`` is not touched
    again.
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"pinned_copy() takes a numpy array, not {type(array).__name__}")
    backend = get_backend()
    buf = backend.alloc_pinned(array.shape, array.dtype)
    np.copyto(buf, array)
    return PinnedArray._adopt(backend, buf, label("PinnedArray", buf.shape, buf.dtype), None)
