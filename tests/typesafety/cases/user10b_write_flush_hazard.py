# RUN: raises BorrowError via-call
# XFAIL: miss (line 62, silence by design): add_many() calls self.flush() inside `with self.batch.write()`; flush() moves self.batch only past `if self.fill == 0: return`, so the conflict is on some paths of the method only, and a method's conditional moves are not reported at calls made inside a borrow
# Planted bug: add_many() flushes a full batch from inside the batch buffer's write() block, so flush() tries to move the buffer into an upload while its write view is open.
"""Event accumulator that batches host-side events and flushes them to the device.

``EventBatcher.add_many`` appends events into a pinned batch buffer through a
``write()`` view; when the batch is full it is flushed: uploaded and folded into a
device histogram by a kernel. The flush happens after the write view is closed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def fold(hist: Any, batch: Any, count: int) -> None:
    i = cuda.grid(1)
    if i < count:
        b = int(batch[i]) % hist.size
        cuda.atomic.add(hist, b, 1.0)


class EventBatcher:
    def __init__(self, capacity: int, bins: int) -> None:
        self.capacity = capacity
        self.stream = nx.stream()
        self.batch: Host = nx.pinned_array(capacity, np.float32)
        self.dev_batch = nx.device_array(capacity, np.float32)
        self.hist = nx.device_array(bins, np.float32)
        zeros = nx.pinned_copy(np.zeros(bins, dtype=np.float32))
        self.hist_host: Host = self.stream.upload(zeros, to=self.hist).wait()
        self.fill = 0
        self.flushes = 0

    def flush(self) -> None:
        if self.fill == 0:
            return
        self.batch = self.stream.upload(self.batch, to=self.dev_batch).wait()
        blocks = (self.capacity + 63) // 64
        self.stream.launch(fold, blocks, 64, self.hist, self.dev_batch, self.fill)
        self.fill = 0
        self.flushes += 1

    def add_many(self, events: Sequence[float]) -> None:
        pending = list(events)
        while pending:
            with self.batch.write() as view:
                room = self.capacity - self.fill
                take, pending = pending[:room], pending[room:]
                view[self.fill : self.fill + len(take)] = take
                self.fill += len(take)
                if self.fill == self.capacity:
                    self.flush()  # E: owner-borrowed

    def histogram(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        self.flush()
        self.hist_host = self.stream.download(self.hist, into=self.hist_host).wait()
        return self.hist_host.read().copy()

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    batcher = EventBatcher(capacity=64, bins=8)
    events = [float(k) for k in range(200)]
    batcher.add_many(events[:90])
    batcher.add_many(events[90:])
    hist = batcher.histogram()
    batcher.close()
    assert float(hist.sum()) == 200.0, hist
    assert batcher.flushes == 4, batcher.flushes
    print("write_flush ok", hist.tolist())


if __name__ == "__main__":
    main()
