# A prefix sum of a long stream of values, block by block: a scanner object owns a pinned
# input and output block and their device arrays; scan_block() uploads a block, a kernel
# scans it (adding the running total carried on the host), and the block's result comes
# back into the pinned output. Each call takes both buffers back before it returns.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def scan(x: Any, y: Any, carry: float) -> None:
    if cuda.grid(1) == 0:
        acc = carry
        for i in range(x.size):
            acc += x[i]
            y[i] = acc


class BlockScanner:
    def __init__(self, block: int) -> None:
        self.s = nx.stream()
        self.h_in: Host = nx.pinned_array(block, np.float32)
        self.h_out: Host = nx.pinned_array(block, np.float32)
        self.d_in = nx.device_array(block, np.float32)
        self.d_out = nx.device_array(block, np.float32)
        self.carry = 0.0

    def scan_block(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        with self.h_in.write() as a:
            a[:] = x
        up = self.s.upload(self.h_in, to=self.d_in)
        self.s.launch(scan, 1, 1, self.d_in, self.d_out, self.carry)
        down = self.s.download(self.d_out, into=self.h_out)
        self.h_in = up.wait()
        self.h_out = down.wait()
        res: NDArray[np.float32] = self.h_out.read().copy()
        self.carry = float(res[-1])
        return res

    def close(self) -> None:
        self.s.close()


def prefix_sum(values: NDArray[np.float32], block: int = 32) -> NDArray[np.float32]:
    sc = BlockScanner(block)
    out = [sc.scan_block(values[i : i + block]) for i in range(0, values.size, block)]
    sc.close()
    return np.concatenate(out)


if __name__ == "__main__":
    v = np.ones(128, dtype=np.float32)
    assert np.array_equal(prefix_sum(v), np.cumsum(v))
    print("scan ok")
