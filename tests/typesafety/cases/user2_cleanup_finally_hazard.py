# A worker object whose step() may raise half-way (a validation of the device result),
# with cleanup in `finally`: whatever happened, the transfers still pending are completed
# so the buffers come home and the stream can close. BUG: the finally completes the
# download unconditionally, a second time on every path where the body already did.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def sqrt_inplace(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] ** 0.5


class Worker:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(N, np.float32)
        self.host = nx.pinned_array(N, np.float32)

    def step(self, value: float) -> float:
        with self.host.write() as a:
            a[:] = value
        up = self.s.upload(self.host, to=self.dev)
        self.s.launch(sqrt_inplace, 1, N, self.dev)
        down = self.s.download(self.dev, into=nx.pinned_array(N, np.float32))
        try:
            self.host = up.wait()
            out = down.wait()
            result = float(out.read()[0])
            if not np.isfinite(result):
                raise ValueError(f"sqrt({value}) is not finite")
            return result
        finally:
            if not up.completed:
                self.host = up.wait()
            down.wait()  # E: transfer-completed-twice "down"

    def close(self) -> None:
        self.s.close()


def main() -> None:
    w = Worker()
    results = [w.step(16.0)]
    try:
        w.step(-1.0)
    except ValueError:
        results.append(-1.0)
    results.append(w.step(9.0))
    w.close()
    assert results == [4.0, -1.0, 3.0], results


main()
