# RUN: ok
"""Fan-out over a thread pool: one pinned batch is split into shards, each worker thread
uploads its shard on its own stream, scales it and starts the download back into it; the
main thread completes the downloads, summarizes, and joins the batch again."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


@dataclass
class Shard:
    index: int
    host: Host
    dev: Dev
    stream: nx.Stream[nx.Owned]


def process(shard: Shard, factor: float) -> nx.Transfer[Host]:
    up = shard.stream.upload(shard.host, to=shard.dev)
    shard.host = up.wait()
    shard.stream.launch(scale, 1, 64, shard.dev, factor)
    return shard.stream.download(shard.dev, into=shard.host)


def summarize(shards: list[Shard]) -> list[float]:
    return [float(sh.host.read().max()) for sh in shards]


def make_shards(batch: Host, workers: int) -> list[Shard]:
    parts = nx.split(batch, workers)
    return [
        Shard(i, part, nx.device_array(part.size, np.float32), nx.stream())
        for i, part in enumerate(parts)
    ]


def main() -> None:
    n, workers = 512, 4
    batch = nx.pinned_copy(np.arange(n, dtype=np.float32))
    shards = make_shards(batch, workers)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(process, sh, 0.5) for sh in shards]
        downs = [f.result() for f in futures]
    for sh, down in zip(shards, downs):
        sh.host = down.wait()
    peaks = summarize(shards)
    batch = nx.join([sh.host for sh in shards])
    for sh in shards:
        sh.dev.free()
        sh.stream.close()
    total = float(batch.read().sum(dtype=np.float64))
    batch.free()
    assert peaks == [0.5 * ((k + 1) * n // workers - 1) for k in range(workers)]
    assert total == 0.5 * n * (n - 1) / 2
    print("peaks", peaks, "total", total)


if __name__ == "__main__":
    main()
