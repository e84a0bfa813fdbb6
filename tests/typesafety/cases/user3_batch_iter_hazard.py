# A batching iterator (a class with __iter__/__next__, like a torch DataLoader): each
# __next__ fills the pinned batch buffer, uploads it into a fresh device batch and
# returns it with the batch mean, computed from a read-only lend of the buffer.
# The bug: __next__ hands out the lent view itself, so the caller can compute the mean
# lazily; the view expires when __next__'s lend block ends.
# (No RUN header: the runtime raises BorrowError at the caller's view.read(), not at the
# return that lets the view escape.)
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def center(a: Any, mean: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] -= mean


class Batches:
    def __init__(self, s: nx.Stream[nx.Owned], data: NDArray[np.float32], batch: int) -> None:
        self.s = s
        self.data = data
        self.batch = batch
        self.pos = 0
        self.host: Host = nx.pinned_array(batch, np.float32)

    def __iter__(self) -> Batches:
        return self

    def __len__(self) -> int:
        return len(self.data) // self.batch

    def __next__(self) -> tuple[Dev, View]:
        if self.pos + self.batch > len(self.data):
            raise StopIteration
        chunk = self.data[self.pos : self.pos + self.batch]
        self.pos += self.batch
        with self.host.write() as a:
            a[:] = chunk
        dev = nx.device_array(self.batch, np.float32)
        self.host = self.s.upload(self.host, to=dev).wait()
        with self.host.lend() as view:
            return dev, view  # E: lend-escape "\"view\""


def main(n: int = 96, batch: int = 32) -> None:
    s = nx.stream()
    data = np.arange(n, dtype=np.float32)
    sums = []
    for dev, view in Batches(s, data, batch):
        mean = float(view.read().mean())
        s.launch(center, 1, 32, dev, mean)
        out = s.download(dev, into=nx.pinned_array(batch, np.float32)).wait()
        sums.append(float(out.read().sum()))
    s.close()
    assert sums == [0.0, 0.0, 0.0], sums


if __name__ == "__main__":
    main()
