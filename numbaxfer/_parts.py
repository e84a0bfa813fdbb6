"""Owned parts: ``nx.split`` an array into parts along its first axis, ``nx.join`` them.

``parts = nx.split(arr, 4)`` MOVES ``arr`` into the split and returns owned handles of
the same kind, one per range of rows (``count`` parts as even as possible, parts of
``chunk`` rows with a ragged last one, or explicit ``bounds``). Each part is a full
handle: it may be written, lent, moved into its own transfer on its own stream, used as
a copy endpoint or a kernel argument. While any part lives the whole array may not be
used; ``arr = nx.join(parts)`` takes every part back (each must be usable: its transfer
completed, no lend or write block open) and returns the whole array, owned.

Device parts are views of the parent's allocation; each has its own cross-stream
ordering (a part written on stream A and another on stream B are independent), and the
joined array waits for all of them: later work on any stream is ordered after every
stream that wrote or read a part.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any, Final, TypeVar, final, overload

import numpy as np

from ._device import DeviceArray
from ._errors import BorrowError, where
from ._host import PinnedArray, layout
from ._mapped import MappedArray
from ._order import DeviceOrder
from ._ownership import STATE_LOCK, BorrowFlag, Consumed, MoveRecord, Owned, Unique, caller_site

__all__ = ["Split", "join", "split"]

DT = TypeVar("DT", bound=np.generic)
_MAX_BOUNDS: Final = 1 << 20


@final
class Split(Unique):
    """What the parts of one ``nx.split`` share: the whole array (moved) and the rows
    of each part."""

    __slots__ = ("bounds", "parent", "site")

    parent: Any  # the whole array (moved while the parts live)
    bounds: tuple[int, ...]
    site: tuple[str, int]

    def __init__(self) -> None:
        raise TypeError("Split is not created directly: use nx.split(array, ...).")

    @classmethod
    def _create(cls, parent: Any, bounds: tuple[int, ...], site: tuple[str, int]) -> Split:
        self = object.__new__(cls)
        self.parent = parent
        self.bounds = bounds
        self.site = site
        return self

    def __repr__(self) -> str:
        n = len(self.bounds) - 1
        return f"<split of {self.parent.label} into {n} parts at {where(self.site)}>"


def _is_int(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _bounds(
    rows: int, count: int | None, chunk: int | None, bounds: Sequence[int] | None
) -> tuple[int, ...]:
    given = [x is not None for x in (count, chunk, bounds)]
    if sum(given) != 1:
        raise TypeError("nx.split() takes exactly one of count, chunk= or bounds=")
    if count is not None:
        if (
            isinstance(count, bool)
            or not isinstance(count, (int, np.integer))
            or not 1 <= count <= rows
        ):
            raise ValueError(
                f"nx.split(): count must be an int from 1 to {rows} (the rows), got {count!r}"
            )
        base, extra = divmod(rows, int(count))
        out = [0]
        for i in range(int(count)):
            out.append(out[-1] + base + (1 if i < extra else 0))
        return tuple(out)
    if chunk is not None:
        if not _is_int(chunk) or chunk < 1:
            raise ValueError(f"nx.split(): chunk must be a positive int, got {chunk!r}")
        return (*range(0, rows, int(chunk)), rows)
    assert bounds is not None
    if isinstance(bounds, (str, bytes)) or len(bounds) > _MAX_BOUNDS:
        raise TypeError("nx.split(): bounds= is a sequence of row indices, e.g. [0, 100, n]")
    out = [int(b) for b in bounds]
    if len(out) < 2 or out[0] != 0 or out[-1] != rows or any(b >= c for b, c in pairwise(out)):
        raise ValueError(
            f"nx.split(): bounds={list(bounds)!r} must start at 0, end at {rows} (the rows) and "
            "increase strictly (no empty parts), e.g. [0, 100, 250, "
            f"{rows}]"
        )
    return tuple(out)


@overload
def split(
    array: Consumed[PinnedArray[Owned, DT]],
    count: int | None = None,
    *,
    chunk: int | None = None,
    bounds: Sequence[int] | None = None,
) -> list[PinnedArray[Owned, DT]]: ...
@overload
def split(
    array: Consumed[DeviceArray[Owned, DT]],
    count: int | None = None,
    *,
    chunk: int | None = None,
    bounds: Sequence[int] | None = None,
) -> list[DeviceArray[Owned, DT]]: ...
def split(
    array: Any,
    count: int | None = None,
    *,
    chunk: int | None = None,
    bounds: Sequence[int] | None = None,
) -> Any:
    """Split a pinned or device array into owned parts along its first axis.

    ``array`` MOVES into the split: until ``nx.join(parts)`` gives it back every use of
    it raises. Give exactly one of ``count`` (parts as even as possible), ``chunk`` (rows
    per part; the last part may be shorter) or ``bounds`` (row indices from 0 to the
    number of rows, strictly increasing). Parts are views of the same memory: no copy.
    """
    site = caller_site()
    if isinstance(array, MappedArray):
        raise TypeError(
            f"nx.split(): {array.label} is a mapped array; split a pinned or device array "
            "(nx.pinned_array / nx.device_array)."
        )
    if not isinstance(array, (PinnedArray, DeviceArray)):
        raise TypeError(
            f"nx.split() takes an nx.PinnedArray or nx.DeviceArray, not {type(array).__name__}"
        )
    if (array._layout if isinstance(array, DeviceArray) else layout(array._buf)) == "F":
        raise ValueError(
            f"nx.split(): {array.label} is Fortran-ordered; its rows are not contiguous, so "
            "parts along the first axis would not be either. Split a C-ordered array."
        )
    rows = array.shape[0]
    cuts = _bounds(rows, count, chunk, bounds)
    with STATE_LOCK:
        flag: BorrowFlag = array._flag
        flag.check_writable("split", site)
        if isinstance(array, PinnedArray) and array._scope is not None:
            raise BorrowError(
                f"cannot split {array.label} at {where(site)}: it is memory pinned in place by "
                "an nx.pinned() block, which would not see its parts when it ends. Split an "
                "array from nx.pinned_array(), or copy into one."
            )
        if isinstance(array, DeviceArray) and array._held_by is not None:
            raise BorrowError(
                f"cannot split {array.label} at {where(site)}: it is {array._held_by}."
            )
        record = Split._create(array, cuts, site)
        parts = [_part(array, record, i, a, b) for i, (a, b) in enumerate(pairwise(cuts))]
        flag.move(MoveRecord("split", "", site))
        return parts


def _part(array: Any, record: Split, index: int, start: int, stop: int) -> Any:
    name = f"{array._flag.name}[{start}:{stop}]"
    if isinstance(array, PinnedArray):
        part: Any = object.__new__(type(array))
        part._backend = array._backend
        part._buf = array._buf[start:stop]
        part._ro = array._ro[start:stop]
        part._mem = array._backend.host_memory(part._buf)
        part._flag = BorrowFlag(name)
        part._scope = None
        part._part = (record, index)
        return part
    dev: DeviceArray[Any, Any] = DeviceArray._adopt(
        array._backend,
        array._backend.device_view(array._buf, start, stop),
        (stop - start, *array.shape[1:]),
        array.dtype,
        name,
    )
    dev._order = array._order.part(name)
    dev._held_by = (
        f"a part of {array._flag.name} (split at {where(record.site)}); join the parts "
        "(nx.join), then free the whole array"
    )
    dev._part = (record, index)
    return dev


@overload
def join(parts: Consumed[Sequence[PinnedArray[Owned, DT]]]) -> PinnedArray[Owned, DT]: ...
@overload
def join(parts: Consumed[Sequence[DeviceArray[Owned, DT]]]) -> DeviceArray[Owned, DT]: ...
def join(parts: Any) -> Any:
    """Join every part of one ``nx.split`` back into the whole array, owned.

    The parts MOVE into the join (in any order). Each must be usable: a part moved into
    a transfer must be taken back with ``wait()`` first, and no part may be lent or in a
    ``write()`` block. The whole array's later device work is ordered after every stream
    that used a part.
    """
    site = caller_site()
    if isinstance(parts, (PinnedArray, DeviceArray)) or not isinstance(parts, Sequence):
        raise TypeError("nx.join() takes the list of parts that nx.split() returned")
    handles = list(parts)
    if not handles:
        raise ValueError("nx.join() got no parts")
    first = handles[0]
    info = getattr(first, "_part", None) if isinstance(first, (PinnedArray, DeviceArray)) else None
    if info is None:
        raise TypeError(
            f"nx.join(): {getattr(first, 'label', type(first).__name__)} is not a part made by "
            "nx.split()"
        )
    record: Split = info[0]
    with STATE_LOCK:
        seen: set[int] = set()
        for h in handles:
            hp = getattr(h, "_part", None)
            if hp is None or hp[0] is not record:
                raise ValueError(
                    f"nx.join(): {getattr(h, 'label', h)!s} is not a part of the split of "
                    f"{record.parent._flag.name} made at {where(record.site)}"
                )
            if hp[1] in seen:
                raise ValueError(f"nx.join(): part {hp[1]} ({h.label}) is given twice")
            seen.add(hp[1])
            h._flag.check_writable("join", site)
        missing = len(record.bounds) - 1 - len(seen)
        if missing:
            raise ValueError(
                f"nx.join(): {missing} part(s) of the split of {record.parent._flag.name} made "
                f"at {where(record.site)} are missing; join takes every part back (complete "
                "their transfers first)."
            )
        parent = record.parent
        if isinstance(parent, PinnedArray):
            whole: Any = parent._reborn()
        else:
            whole = DeviceArray._adopt(
                parent._backend, parent._buf, parent.shape, parent.dtype, parent._flag.name
            )
            whole._order = DeviceOrder.joined(parent._flag.name, (h._order for h in handles))
        end = MoveRecord("join", "", site)
        for h in handles:
            h._flag.retire(end)
        record.parent = whole  # a later split of `whole` makes its own record
        return whole
