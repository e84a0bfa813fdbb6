# RUN: ok
"""Overlap host-to-device copies on one stream with kernels on another."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def accumulate(src: Any, acc: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        acc[i] += 0.5 * src[i]


class OverlapEngine:
    def __init__(self, n: int) -> None:
        self.copy_stream = nx.stream()
        self.compute_stream = nx.stream()
        self.staging: Host = nx.pinned_array(n, np.float32)
        self.d_in: Dev = nx.device_array(n, np.float32)
        self.d_acc: Dev = nx.device_array(n, np.float32)
        self.compute_stream.upload_staged(np.zeros(n, np.float32), to=self.d_acc).wait()

    def feed(self, block: NDArray[np.float32]) -> None:
        with self.staging.write() as a:
            a[:] = block
        up = self.copy_stream.upload(self.staging, to=self.d_in)
        # the compute stream is ordered after the upload by an event wait on the device
        self.compute_stream.launch(accumulate, 1, 64, self.d_in, self.d_acc)
        self.staging = up.wait()

    def result(self) -> nx.Transfer[Host]:
        out = nx.pinned_array(self.d_acc.size, np.float32)
        return self.compute_stream.download(self.d_acc, into=out)

    def shutdown(self) -> None:
        self.d_in.free()
        self.copy_stream.close()
        self.compute_stream.close()


def main() -> None:
    n = 128
    blocks = [np.full(n, float(k), np.float32) for k in range(1, 6)]
    engine = OverlapEngine(n)
    for b in blocks:
        engine.feed(b)
    pending = engine.result()
    out = pending.wait()
    engine.shutdown()
    expected = 0.5 * sum(float(k) for k in range(1, 6))
    assert np.allclose(out.read(), expected), out.read()[:4]
    print(f"accumulated {len(blocks)} blocks: {out.read()[0]}")


if __name__ == "__main__":
    main()
