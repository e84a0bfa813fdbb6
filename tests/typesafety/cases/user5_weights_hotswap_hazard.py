# A model server that hot-swaps its weights (see user5_weights_hotswap_ok.py). The bug,
# kind "a lend of a buffer an upload owns": the digest is moved into reload(), taken
# through a lend of the staging buffer right after its upload was enqueued.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["w", "x"], writes=["y"])
@cuda.jit
def apply(w: Any, x: Any, y: Any) -> None:
    for i in range(cuda.grid(1), y.size, cuda.gridsize(1)):
        y[i] = w[i] * x[i]


class HotModel:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.active = nx.device_array(n, np.float32)
        self.standby = nx.device_array(n, np.float32)
        self.s.upload_staged(np.ones(n, np.float32), to=self.active)
        self.staging: Host = nx.pinned_array(n, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        self.digest = ""

    def reload(self, weights: NDArray[np.float32]) -> None:
        assert self.pending is None, "a reload is already in flight"
        with self.staging.write() as a:
            a[:] = weights
        self.pending = self.s.upload(self.staging, to=self.standby)
        with self.staging.lend() as view:  # E: use-after-transfer "staging"
            self.digest = hashlib.sha1(view.read().tobytes()).hexdigest()[:12]

    def poll(self) -> bool:
        if self.pending is None or not self.pending.done():
            return False
        self.staging = self.pending.wait()
        self.pending = None
        self.active, self.standby = self.standby, self.active
        return True

    def infer(self, d_x: nx.DeviceArray[nx.Owned, np.float32], d_y: nx.DeviceArray[nx.Owned, np.float32]) -> None:
        apply[1, 32, self.s](self.active, d_x, d_y)

    def close(self) -> None:
        if self.pending is not None:
            self.staging = self.pending.wait()
        self.s.close()


if __name__ == "__main__":
    model = HotModel(32)
    d_x, d_y = nx.device_array(32, np.float32), nx.device_array(32, np.float32)
    model.s.upload_staged(np.full(32, 2.0, np.float32), to=d_x)
    model.infer(d_x, d_y)
    model.reload(np.full(32, 3.0, np.float32))
    while not model.poll():
        pass
    model.infer(d_x, d_y)
    out = nx.pinned_array(32, np.float32)
    out = model.s.download(d_y, into=out).wait()
    assert float(out.read()[0]) == 6.0 and len(model.digest) == 12
    model.close()
    print("hot swap ok")
