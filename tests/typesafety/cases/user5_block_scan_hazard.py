# A block-by-block prefix sum in a scanner object (see user5_block_scan_ok.py). The bug,
# XFAIL: miss (half of the planted bug): the upload stored in self.pending by scan_block() (line 45) is overwritten by the next call of the same method, dropping the earlier upload unfinished; not reported (the use of self.h_in by that next call, at line 59, is)
# kind "an attribute moved in one call of a method, written in the next call": to let
# the upload overlap the caller, its wait() is deferred to close(), so the next
# scan_block() refills self.h_in while the last upload may still read it.
# (Simulator: raises UseAfterTransferError via-call. No RUN header while the case is a strict xfail: the agreement test would XPASS.)
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
        self.pending: nx.Transfer[Host] | None = None

    def scan_block(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        with self.h_in.write() as a:
            a[:] = x
        up = self.s.upload(self.h_in, to=self.d_in)
        self.s.launch(scan, 1, 1, self.d_in, self.d_out, self.carry)
        down = self.s.download(self.d_out, into=self.h_out)
        self.pending = up  # waited in close()  # E: unfinished-transfer "pending"
        self.h_out = down.wait()
        res: NDArray[np.float32] = self.h_out.read().copy()
        self.carry = float(res[-1])
        return res

    def close(self) -> None:
        if self.pending is not None:
            self.h_in = self.pending.wait()
        self.s.close()


def prefix_sum(values: NDArray[np.float32], block: int = 32) -> NDArray[np.float32]:
    sc = BlockScanner(block)
    out = [sc.scan_block(values[i : i + block]) for i in range(0, values.size, block)]  # E: use-after-transfer "h_in"
    sc.close()
    return np.concatenate(out)


if __name__ == "__main__":
    v = np.ones(128, dtype=np.float32)
    assert np.array_equal(prefix_sum(v), np.cumsum(v))
    print("scan ok")
