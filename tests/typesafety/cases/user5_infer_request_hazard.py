# An inference server's request object driven by an event loop (see
# XFAIL: miss: Request.collect() waits self.up and self.down; the loop collects the finished requests, then the drain "for req in requests: req.collect()" (line 80) collects every request again: a second completion through a method, over the elements of a list, is not reported
# user5_infer_request_ok.py). The bug, kind "waited twice (through a method)": the final
# drain walks every request of the batch instead of the ones still in flight, so
# collect() waits again the transfers the loop already collected.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["x", "w"], writes=["y"])
@cuda.jit
def dense_relu(x: Any, w: Any, y: Any) -> None:
    for i in range(cuda.grid(1), y.size, cuda.gridsize(1)):
        acc = 0.0
        for j in range(x.size):
            acc += w[i, j] * x[j]
        y[i] = max(acc, 0.0)


class Request:
    def __init__(self, rid: int, features: NDArray[np.float32], n_out: int) -> None:
        self.rid = rid
        self.features = features
        self.h_in: Host = nx.pinned_array(features.size, np.float32)
        self.h_out: Host = nx.pinned_array(n_out, np.float32)
        self.d_in = nx.device_array(features.size, np.float32)
        self.d_out = nx.device_array(n_out, np.float32)
        self.up: nx.Transfer[Host] | None = None
        self.down: nx.Transfer[Host] | None = None

    def prepare(self) -> None:
        with self.h_in.write() as a:
            a[:] = (self.features - self.features.mean()) / (self.features.std() + 1e-6)

    def submit(self, s: nx.Stream[nx.Lent], weights: nx.DeviceArray[nx.Lent, np.float32]) -> None:
        self.up = s.upload(self.h_in, to=self.d_in)
        dense_relu[1, 32, s](self.d_in, weights, self.d_out)
        self.down = s.download(self.d_out, into=self.h_out)

    def poll(self) -> bool:
        return self.down is not None and self.down.done()

    def collect(self) -> NDArray[np.float32]:
        assert self.up is not None and self.down is not None
        self.h_in = self.up.wait()
        self.h_out = self.down.wait()
        return self.h_out.read().copy()


def serve(batch: list[NDArray[np.float32]], w: NDArray[np.float32], per_tick: int = 2) -> dict[int, NDArray[np.float32]]:
    s = nx.stream()
    d_w = nx.device_array(w.shape, np.float32)
    s.upload_staged(w, to=d_w)
    requests = [Request(i, f, w.shape[0]) for i, f in enumerate(batch)]
    queue = list(requests)
    inflight: list[Request] = []
    results: dict[int, NDArray[np.float32]] = {}
    with d_w.lend() as weights:
        while queue or inflight:
            for req in queue[:per_tick]:
                req.prepare()
                req.submit(s, weights)
                inflight.append(req)
            del queue[:per_tick]
            for req in [r for r in inflight if r.poll()]:
                results[req.rid] = req.collect()
                inflight.remove(req)
        for req in requests:  # drain: "make sure everything is finished"
            results[req.rid] = req.collect()  # E: transfer-completed-twice
    s.close()
    return results


if __name__ == "__main__":
    rng = np.random.default_rng(5)
    w = rng.standard_normal((8, 16)).astype(np.float32)
    batch = [rng.standard_normal(16).astype(np.float32) for _ in range(5)]
    out = serve(batch, w)
    for i, f in enumerate(batch):
        x = (f - f.mean()) / (f.std() + 1e-6)
        assert np.allclose(out[i], np.maximum(w @ x, 0.0), atol=1e-4), i
    print("server ok")
