"""``PinnedPool``: pinned buffers handed out only when the work that last used them is
done: the event-gated pool people build by hand, with ownership.

A buffer is either free in the pool, out with its user (owned), or in flight inside a
transfer the pool is holding (``recycle``); ``take()`` never returns a buffer a copy may
still touch. Thread-safe: a watcher thread may recycle while another takes.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, Generic, Literal, TypeVar, final, overload

import numpy as np
from numpy.typing import DTypeLike

from ._errors import where
from ._host import PinnedArray, pinned_array
from ._ownership import STATE_LOCK, Consumed, MoveRecord, Owned, Unique, caller_site
from ._transfer import Transfer

__all__ = ["PinnedPool"]

DT = TypeVar("DT", bound=np.generic)


@final
class PinnedPool(Unique, Generic[DT]):
    """``count`` pinned buffers of one shape and dtype, allocated once.

    * ``take()``: an owned buffer no copy is using (waits for the oldest recycled
      transfer if none is free, or for a ``give``/``recycle`` from another thread;
      ``block=False`` returns None instead);
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
        if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
            raise ValueError(f"PinnedPool needs an int count > 0, got {count!r}")
        self._cond = threading.Condition(threading.Lock())
        self._free: deque[PinnedArray[Owned, DT]] = deque(
            pinned_array(shape, dtype) for _ in range(count)
        )
        self._recycled: deque[Transfer[PinnedArray[Owned, DT]]] = deque()
        self._members = {_base_id(b) for b in self._free}
        first = self._free[0]
        self._shape, self._dtype = first.shape, first.dtype
        #: Buffers the pool owns (free, out with users, or in flight).
        self.count = count

    def __len__(self) -> int:
        """Buffers free now (not counting recycled transfers)."""
        return len(self._free)

    @overload
    def take(
        self, *, block: Literal[True] = True, timeout: float | None = None
    ) -> PinnedArray[Owned, DT]: ...
    @overload
    def take(
        self, *, block: bool, timeout: float | None = None
    ) -> PinnedArray[Owned, DT] | None: ...
    def take(
        self, *, block: bool = True, timeout: float | None = None
    ) -> PinnedArray[Owned, DT] | None:
        """An owned buffer whose last copy has finished.

        Free buffers first, then any recycled transfer that is done. Otherwise, with
        ``block=True``, waits on the oldest recycled transfer's own event (not a stream),
        or, if every buffer is out with its users, until one is given or recycled
        (``timeout`` seconds at most, then TimeoutError). ``block=False`` returns None.
        """
        oldest: Transfer[PinnedArray[Owned, DT]] | None = None
        try:
            with self._cond:
                while True:
                    if self._free:
                        return self._free.popleft()
                    i = next((i for i, t in enumerate(self._recycled) if t.done()), None)
                    if i is None and not block:
                        return None
                    if i is not None or self._recycled:
                        # Subscript and del, no call: no interrupt between taking it
                        # off the queue and holding it here.
                        oldest = self._recycled[0 if i is None else i]
                        del self._recycled[0 if i is None else i]
                        break
                    if not self._cond.wait(timeout):
                        raise TimeoutError(
                            f"PinnedPool.take(): none of its {self.count} buffers came back "
                            f"within {timeout} s; give() or recycle() them when done (or "
                            "enlarge the pool)."
                        )
            return oldest.wait()
        except BaseException:  # interrupted: a transfer taken off the queue goes back
            if oldest is not None and not oldest.completed:
                with self._cond:
                    if oldest not in self._recycled:
                        self._recycled.appendleft(oldest)
                    self._cond.notify()
            raise

    def try_take(self) -> PinnedArray[Owned, DT] | None:
        """A free (or finished) buffer now, or None: ``take(block=False)``."""
        return self.take(block=False)

    def grow(self, count: int) -> None:
        """Allocate ``count`` more buffers of the pool's shape and dtype (page-locking is
        slow: grow ahead of need, not per item). Waiting takers get them at once."""
        if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
            raise ValueError(f"PinnedPool.grow() needs an int count > 0, got {count!r}")
        fresh = [pinned_array(self._shape, self._dtype) for _ in range(count)]
        with self._cond:
            self._free.extend(fresh)
            self._members.update(_base_id(b) for b in fresh)
            self.count += count
            self._cond.notify_all()

    def drain(self) -> None:
        """Complete every recycled transfer (waiting for each one's own event) and put
        its buffer back: call before dropping the pool, so nothing is left in flight."""
        while True:
            transfer: Transfer[PinnedArray[Owned, DT]] | None = None
            buf: PinnedArray[Owned, DT] | None = None
            try:
                with self._cond:
                    if not self._recycled:
                        return
                    transfer = self._recycled[0]
                    del self._recycled[0]
                buf = transfer.wait()
                with self._cond:
                    self._free.append(buf)
                    buf = None
                    self._cond.notify()
            except BaseException:
                with self._cond:
                    if buf is not None and buf not in self._free:
                        self._free.append(buf)
                    elif (
                        transfer is not None
                        and not transfer.completed
                        and transfer not in self._recycled
                    ):
                        self._recycled.appendleft(transfer)
                raise

    def give(self, buf: Consumed[PinnedArray[Owned, DT]]) -> None:
        """Put ``buf`` back now (it MOVES: the caller may not use it again)."""
        site = caller_site()
        if not isinstance(buf, PinnedArray):
            raise TypeError(
                f"PinnedPool.give() at {where(site)} takes one of the pool's buffers (an "
                f"nx.PinnedArray from take()), not {type(buf).__name__}"
            )
        self._check_member(buf)
        with STATE_LOCK:
            fresh: PinnedArray[Owned, DT] = buf._reborn()
            buf._flag.move(MoveRecord("give", "", site))
        with self._cond:
            self._free.append(fresh)
            self._cond.notify()

    def recycle(self, transfer: Consumed[Transfer[PinnedArray[Owned, DT]]]) -> None:
        """Hand a transfer that holds one of the pool's buffers to the pool, which
        completes it once it has finished. The caller may not ``wait()`` it any more."""
        if not isinstance(transfer, Transfer) or transfer._handle is None:
            raise TypeError(
                "PinnedPool.recycle() takes an unfinished transfer (upload or download) of one "
                f"of this pool's buffers, not {transfer!r}"
            )
        self._check_member(transfer._handle)
        held = transfer._take_over(caller_site(), "a PinnedPool")
        with self._cond:
            self._recycled.append(held)
            self._cond.notify()

    def _check_member(self, obj: PinnedArray[Any, Any]) -> None:
        if _base_id(obj) not in self._members:
            raise ValueError(
                f"{getattr(obj, 'label', obj)!s} is not one of this pool's buffers; a pool only "
                "takes back what it handed out."
            )


def _base_id(h: PinnedArray[Any, Any]) -> int:
    buf = h._buf
    return id(buf.base if buf.base is not None else buf)
