# RUN: ok
"""asyncio shard loader: each shard's features are uploaded while its labels are checked.

Every worker task owns one stream and one device buffer. ``load_shard`` starts the
feature upload, validates the labels on the host while the copy runs (a corrupt shard
raises), scales the features on the device and awaits the download. A corrupt shard is
repaired and loaded again by ``load_with_repair``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


class CorruptShard(ValueError):
    pass


@cuda.jit
def scale(x: Any, factor: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        x[i] *= factor


@dataclass
class Worker:
    s: nx.Stream[nx.Owned]
    dev: Dev
    repairs: int = 0


def check_labels(shard: int, labels: NDArray[np.int64]) -> None:
    bad = np.flatnonzero((labels != 0) & (labels != 1))
    if bad.size:
        raise CorruptShard(f"shard {shard}: {bad.size} labels outside {{0, 1}}")


async def load_shard(shard: int, feats: NDArray[np.float32], labels: NDArray[np.int64], w: Worker) -> float:
    host = nx.pinned_copy(feats)
    up = w.s.upload(host, to=w.dev)
    try:
        check_labels(shard, labels)  # host work that overlaps the copy; may raise
    finally:
        host = await up  # the staging buffer comes back on every path
    w.s.launch(scale, 1, 64, w.dev, 0.5)
    host = await w.s.download(w.dev, into=host)
    total = float(host.read().astype(np.float64) @ labels.astype(np.float64))
    host.free()
    return total


async def load_with_repair(shard: int, feats: NDArray[np.float32], labels: NDArray[np.int64], w: Worker) -> float:
    try:
        return await load_shard(shard, feats, labels, w)
    except CorruptShard:
        w.repairs += 1
    return await load_shard(shard, feats, np.clip(labels, 0, 1), w)


async def load_all(shards: list[tuple[NDArray[np.float32], NDArray[np.int64]]], workers: list[Worker]) -> list[float]:
    results: list[float] = [0.0] * len(shards)
    for start in range(0, len(shards), len(workers)):
        group = range(start, min(start + len(workers), len(shards)))
        done = await asyncio.gather(
            *(load_with_repair(k, *shards[k], workers[k - start]) for k in group)
        )
        for k, v in zip(group, done):
            results[k] = v
    return results


def main(n: int = 48, count: int = 5) -> None:
    rng = np.random.default_rng(13)
    shards = []
    for k in range(count):
        feats = rng.integers(0, 10, n).astype(np.float32)
        labels = rng.integers(0, 2, n).astype(np.int64)
        if k == 3:
            labels[7] = 255  # one corrupt record
        shards.append((feats, labels))
    workers = [Worker(nx.stream(), nx.device_array(n, np.float32)) for _ in range(2)]
    results = asyncio.run(load_all(shards, workers))
    repairs = sum(w.repairs for w in workers)
    for w in workers:
        w.s.close()

    for k, (feats, labels) in enumerate(shards):
        want = float((feats.astype(np.float64) * 0.5) @ np.clip(labels, 0, 1).astype(np.float64))
        assert results[k] == want, (k, results[k], want)
    assert repairs == 1, repairs
    print(f"async_shards: {count} shards loaded, {repairs} repaired")


if __name__ == "__main__":
    main()
