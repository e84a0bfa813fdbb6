# A front/back buffer pair in a class (the CuPy "double buffer" idiom): submit() fills
# the back buffer and uploads it, flip() waits that upload and swaps the two, so the
# host reads the front buffer while the next back buffer is being uploaded.
# The bug: flip() was "optimised" to swap without waiting (the wait moved to a close()
# that is never reached), so front_sum() reads the buffer the upload still owns.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def tally(src: Any, acc: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        acc[i] += src[i]


class FlipBuffers:
    def __init__(self, s: nx.Stream[nx.Owned], n: int) -> None:
        self.s = s
        self.front: Host = nx.pinned_array(n, np.float32)
        self.back: Host = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def submit(self, values: NDArray[np.float32]) -> nx.DeviceArray[nx.Owned, np.float32]:
        with self.back.write() as a:
            a[:] = values
        self.pending = self.s.upload(self.back, to=self.dev)
        return self.dev

    def flip(self) -> None:
        self.front, self.back = self.back, self.front

    def close(self) -> None:
        if self.pending is not None:
            self.front = self.pending.wait()
            self.pending = None

    def front_sum(self) -> float:
        return float(self.front.read().sum())


def main(steps: int = 4, n: int = 16) -> None:
    s = nx.stream()
    acc = nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=acc)
    bufs = FlipBuffers(s, n)
    sums = []
    for k in range(steps):
        # (a later iteration writes back the buffer whose upload flip() left unwaited)
        dev = bufs.submit(np.full(n, float(k), np.float32))  # E: use-after-transfer "bufs.back" "may be used"
        s.launch(tally, 1, 32, dev, acc)
        bufs.flip()
        sums.append(bufs.front_sum())  # E: use-after-transfer "bufs.front"
    out = s.download(acc, into=nx.pinned_array(n, np.float32)).wait()
    s.close()
    assert sums == [float(n * k) for k in range(steps)], sums
    assert float(out.read()[0]) == sum(range(steps))


if __name__ == "__main__":
    main()
