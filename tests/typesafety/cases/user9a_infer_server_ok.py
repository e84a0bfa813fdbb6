# RUN: ok
"""Batch inference server: requests are packed into pooled pinned buffers."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def relu_layer(x: Any, y: Any, bias: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = x[i] + bias
        y[i] = v if v > 0.0 else 0.0


@dataclass
class Batch:
    ids: list[int]
    features: NDArray[np.float32]
    scores: list[float] = field(default_factory=list)


class InferenceServer:
    def __init__(self, batch_elems: int, depth: int = 2) -> None:
        self.stream = nx.stream()
        self.pool: nx.PinnedPool[np.float32] = nx.PinnedPool(depth, batch_elems, np.float32)
        self.d_x = nx.device_array(batch_elems, np.float32)
        self.d_y = nx.device_array(batch_elems, np.float32)
        self.served = 0

    def serve(self, batch: Batch) -> Batch:
        buf = self.pool.take()
        with buf.write() as a:
            a[:] = batch.features
        buf = self.stream.upload(buf, to=self.d_x).wait()
        self.stream.launch(relu_layer, 1, 64, self.d_x, self.d_y, -0.5)
        buf = self.stream.download(self.d_y, into=buf).wait()
        per_request = buf.read().reshape(len(batch.ids), -1).sum(axis=1)
        self.pool.give(buf)
        batch.scores = [float(v) for v in per_request]
        self.served += len(batch.ids)
        return batch

    def close(self) -> None:
        self.pool.drain()
        self.stream.close()


def main() -> None:
    rng = np.random.default_rng(5)
    server = InferenceServer(4 * 16)
    for _ in range(3):
        feats = rng.random(4 * 16, dtype=np.float32)
        done = server.serve(Batch([1, 2, 3, 4], feats))
        expected = np.maximum(feats - 0.5, 0.0).reshape(4, -1).sum(axis=1)
        assert np.allclose(done.scores, expected, atol=1e-5)
    server.close()
    print(f"served {server.served} requests")


if __name__ == "__main__":
    main()
