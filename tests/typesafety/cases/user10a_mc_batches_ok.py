# RUN: ok
"""Monte Carlo estimate of pi in batches: a generator yields batches of random points,
each batch is uploaded, classified on the device and the hit flags come back."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def inside_circle(xy: Any, hits: Any) -> None:
    for i in range(cuda.grid(1), hits.size, cuda.gridsize(1)):
        x = xy[2 * i]
        y = xy[2 * i + 1]
        hits[i] = 1.0 if x * x + y * y <= 1.0 else 0.0


@dataclass(frozen=True)
class Batch:
    index: int
    points: Host


@dataclass
class MCConfig:
    batches: int = 5
    batch_size: int = 512
    seed: int = 1234


def batches(cfg: MCConfig) -> Iterator[Batch]:
    rng = np.random.default_rng(cfg.seed)
    for b in range(cfg.batches):
        pts = nx.pinned_array(2 * cfg.batch_size, np.float32)
        with pts.write() as a:
            a[:] = rng.uniform(-1.0, 1.0, size=a.size).astype(np.float32)
        yield Batch(b, pts)


class PiEstimator:
    def __init__(self, cfg: MCConfig) -> None:
        self.cfg = cfg
        self.stream = nx.stream()
        self.d_xy = nx.device_array(2 * cfg.batch_size, np.float32)
        self.d_hits = nx.device_array(cfg.batch_size, np.float32)
        self.hits_host: Host = nx.pinned_array(cfg.batch_size, np.float32)
        self.counts: list[int] = []

    def process(self, batch: Batch) -> Host:
        up = self.stream.upload(batch.points, to=self.d_xy)
        blocks = max(1, self.cfg.batch_size // 256)
        self.stream.launch(inside_circle, blocks, 64, self.d_xy, self.d_hits)
        down = self.stream.download(self.d_hits, into=self.hits_host)
        self.hits_host = down.wait()
        self.counts.append(int(self.hits_host.read().sum()))
        return up.wait()

    def estimate(self) -> float:
        total = len(self.counts) * self.cfg.batch_size
        return 4.0 * sum(self.counts) / total

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    cfg = MCConfig()
    est = PiEstimator(cfg)
    recycled: list[Host] = []
    for batch in batches(cfg):
        recycled.append(est.process(batch))
    pi = est.estimate()
    est.close()
    for buf in recycled:
        buf.free()
    assert len(est.counts) == cfg.batches
    assert abs(pi - np.pi) < 0.2, pi
    print(f"pi ~ {pi:.4f} from {cfg.batches} batches")


if __name__ == "__main__":
    main()
