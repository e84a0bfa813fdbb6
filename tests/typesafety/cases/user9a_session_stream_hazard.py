# RUN: raises BorrowError
# Planted bug: the stream is closed inside its own lend block (the close was indented into the with block along with the loop).
"""A scoring session that lends its stream to per-batch helpers, then shuts it down."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def score(x: Any, y: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        y[i] = x[i] * x[i] + 1.0


def score_batch(batch: NDArray[np.float32], buf: Host, d_x: Dev, d_y: Dev, ls: nx.Stream[nx.Lent]) -> tuple[Host, float]:
    with buf.write() as a:
        a[:] = batch
    buf = ls.upload(buf, to=d_x).wait()
    ls.launch(score, 1, 64, d_x, d_y)
    buf = ls.download(d_y, into=buf).wait()
    return buf, float(buf.read().sum())


class Session:
    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.buf: Host = nx.pinned_array(n, np.float32)
        self.d_x: Dev = nx.device_array(n, np.float32)
        self.d_y: Dev = nx.device_array(n, np.float32)
        self.totals: list[float] = []

    def run(self, batches: list[NDArray[np.float32]]) -> None:
        with self.stream.lend() as ls:
            for batch in batches:
                self.buf, total = score_batch(batch, self.buf, self.d_x, self.d_y, ls)
                self.totals.append(total)
            self.stream.close()  # E: owner-borrowed


def main() -> None:
    n = 32
    batches = [np.full(n, float(k), np.float32) for k in range(4)]
    sess = Session(n)
    sess.run(batches)
    assert sess.totals == [float(n * (k * k + 1)) for k in range(4)], sess.totals
    assert sess.stream.closed
    print("totals:", sess.totals)


if __name__ == "__main__":
    main()
