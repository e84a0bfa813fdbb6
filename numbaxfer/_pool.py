"""``PinnedPool``: pinned buffers handed out only when the work that last used them is
done: the event-gated pool people build by hand, with ownership.

A buffer is either free in the pool, out with its user (owned), or in flight inside a
transfer the pool is holding (``recycle``); ``take()`` never returns a buffer a copy may
still touch. Thread-safe: a watcher thread may recycle while another takes.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, Generic, TypeVar, overload

import numpy as np
from numpy.typing import DTypeLike

from ._errors import where
from ._host import PinnedArray, pinned_array
from ._ownership import Consumed, MoveRecord, Owned, caller_site
from ._transfer import Transfer

__all__ = ["PinnedPool"]

DT = TypeVar("DT", bound=np.generic)


class PinnedPool(Generic[DT]):
    """``count`` pinned buffers of one shape and dtype, allocated once.

    * ``take()``: an owned buffer no copy is using (waits for the oldest recycled
      transfer if none is free; ``block=False`` returns None instead);
    * ``give(buf)``: ``buf`` MOVES back into the pool now;
    * ``recycle(transfer)``: the transfer (and the buffer it holds) MOVES into the pool,
      which completes it when it has finished: ``take()`` hands the buffer out again.
    """

    @overload
    def __init__(
        self: PinnedPool[DT], count: int, shape: int | tuple[int, ...], dtype: type[DT]
    ) -> None: ...
    @overload
    def __init__(
        self: PinnedPool[Any], count: int, shape: int | tuple[int, ...], dtype: DTypeLike
    ) -> None: ...
    def __init__(self, count: int, shape: int | tuple[int, ...], dtype: DTypeLike) -> None:
        if count <= 0:
            raise ValueError(f"PinnedPool needs count > 0, got {count}")
        self._lock = threading.Lock()
        self._free: deque[PinnedArray[Owned, DT]] = deque(
            pinned_array(shape, dtype) for _ in range(count)
        )
        self._recycled: deque[Transfer[PinnedArray[Owned, DT]]] = deque()
        self._members = {id(b._buf.base if b._buf.base is not None else b._buf) for b in self._free}
        self.count = count

    def __len__(self) -> int:
        """Buffers free now (not counting recycled transfers)."""
        return len(self._free)

    def take(self, *, block: bool = True) -> PinnedArray[Owned, DT] | None:
        """An owned buffer whose last copy has finished. Blocks on the oldest recycled
        transfer's own event (not a stream) when none is free, unless ``block=False``."""
        with self._lock:
            if self._free:
                return self._free.popleft()
            for i, transfer in enumerate(self._recycled):
                if transfer.done():
                    del self._recycled[i]
                    return transfer.wait()
            if not self._recycled:
                if not block:
                    return None
                raise RuntimeError(
                    f"PinnedPool.take() at {where(caller_site())}: all {self.count} buffers are "
                    "out with their users and none was recycled; give() or recycle() one "
                    "first (or make the pool larger)."
                )
            if not block:
                return None
            oldest = self._recycled.popleft()
        return oldest.wait()

    def give(self, buf: Consumed[PinnedArray[Owned, DT]]) -> None:
        """Put ``buf`` back now (it MOVES: the caller may not use it again)."""
        self._check_member(buf)
        buf._flag.move(MoveRecord("PinnedPool.give", "", caller_site()))
        fresh: PinnedArray[Owned, DT] = PinnedArray._adopt(
            buf._backend, buf._buf, buf._flag.name, None, buf._mem
        )
        with self._lock:
            self._free.append(fresh)

    def recycle(self, transfer: Consumed[Transfer[PinnedArray[Owned, DT]]]) -> None:
        """Hand a transfer that holds one of the pool's buffers to the pool, which
        completes it once it has finished. The caller may not ``wait()`` it any more."""
        if not isinstance(transfer, Transfer) or transfer._buf is None:
            raise TypeError("recycle() takes an unfinished transfer of one of this pool's buffers")
        self._check_member(transfer)
        with self._lock:
            self._recycled.append(transfer)

    def _check_member(self, obj: Any) -> None:
        buf = obj._buf
        base = buf.base if buf is not None and buf.base is not None else buf
        if id(base) not in self._members:
            raise ValueError(
                f"{getattr(obj, 'label', obj)!s} is not one of this pool's buffers; a pool only "
                "takes back what it handed out."
            )
