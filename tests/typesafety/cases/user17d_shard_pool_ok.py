# RUN: ok
"""A feature-upload service on a thread pool: each shard of a batch is staged in its
own pinned buffer, and a worker thread per shard uploads it on a private stream,
centres it on the device and downloads the result.

The staging buffers live in a dict keyed by shard name, so that the next batch
reuses them; an audit checksum of every shard is taken for the request log.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def centre(a: Any, mean: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] - mean


class ShardUploader:
    def __init__(self, names: list[str], n: int) -> None:
        self.n = n
        self.staging: dict[str, Host] = {k: nx.pinned_array(n, np.float32) for k in names}
        self.outputs: dict[str, Host] = {k: nx.pinned_array(n, np.float32) for k in names}
        self.devs: dict[str, Dev] = {k: nx.device_array(n, np.float32) for k in names}
        self.streams: dict[str, nx.Stream[nx.Owned]] = {k: nx.stream() for k in names}
        self.pool = ThreadPoolExecutor(max_workers=len(names), thread_name_prefix="shard")
        self.audit: dict[str, float] = {}

    def _push(
        self, name: str, src: Host, out: Host, mean: float
    ) -> tuple[nx.Transfer[Host], nx.Transfer[Host]]:
        s, dev = self.streams[name], self.devs[name]
        up = s.upload(src, to=dev)
        s.launch(centre, 1, 16, dev, mean)
        down = s.download(dev, into=out)
        return up, down

    def process(self, batch: dict[str, NDArray[np.float32]]) -> dict[str, NDArray[np.float32]]:
        futures: dict[str, Future[tuple[nx.Transfer[Host], nx.Transfer[Host]]]] = {}
        for name, values in batch.items():
            with self.staging[name].write() as a:
                a[:] = values
            mean = float(values.mean(dtype=np.float64))
            futures[name] = self.pool.submit(
                self._push, name, self.staging[name], self.outputs[name], mean
            )
        results: dict[str, NDArray[np.float32]] = {}
        for name, fut in futures.items():
            up, down = fut.result()  # the worker has enqueued its copies
            self.staging[name] = up.wait()
            self.audit[name] = float(self.staging[name].read().sum(dtype=np.float64))
            self.outputs[name] = down.wait()
            results[name] = self.outputs[name].read().copy()
        return results

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        for name in self.streams:
            self.streams[name].close()
            self.staging[name].free()
            self.outputs[name].free()
            self.devs[name].free()


def main() -> None:
    names = ["user", "item", "context"]
    n = 64
    rng = np.random.default_rng(5)
    svc = ShardUploader(names, n)
    try:
        for _ in range(2):
            batch = {k: rng.integers(0, 10, n).astype(np.float32) for k in names}
            results = svc.process(batch)
            for k in names:
                want = batch[k] - np.float32(batch[k].mean(dtype=np.float64))
                assert np.allclose(results[k], want, atol=1e-5), k
                assert svc.audit[k] == float(batch[k].sum(dtype=np.float64)), k
    finally:
        svc.close()
    print(f"shard_pool: {len(names)} shards x 2 batches centred on worker streams")


if __name__ == "__main__":
    main()
