# RUN: raises UseAfterTransferError
# Planted bug: push() waits every upload but joins the stale part handles (moved into the uploads) instead of the ones wait() handed back.
"""A sharded uploader: one big pinned array is split into owned parts, each part goes up
on its own stream, and the parts are joined back once every upload has landed."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def offset(a: Any, by: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += by


class ShardedMirror:
    def __init__(self, n: int, shards: int) -> None:
        self.shards = shards
        self.streams = [nx.stream() for _ in range(shards)]
        self.host: Host = nx.pinned_array(n, np.float32)
        self.dev: Dev = nx.device_array(n, np.float32)

    def load(self, values: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        with self.host.write() as a:
            a[:] = values

    def push(self, bump: float) -> None:
        parts = nx.split(self.host, self.shards)
        dparts = nx.split(self.dev, self.shards)
        ups = [s.upload(h, to=d) for s, h, d in zip(self.streams, parts, dparts)]
        for s, d in zip(self.streams, dparts):
            s.launch(offset, 1, d.size, d, bump)
        landed = [t.wait() for t in ups]
        self.host = nx.join(parts)  # E: use-after-transfer
        self.dev = nx.join(dparts)

    def pull(self) -> float:
        s = self.streams[0]
        self.host = s.download(self.dev, into=self.host).wait()
        return float(self.host.read().sum())

    def close(self) -> None:
        for s in self.streams:
            s.close()


def main() -> None:
    n = 64
    mirror = ShardedMirror(n, 4)
    mirror.load(np.ones(n, np.float32))
    mirror.push(2.0)
    total = mirror.pull()
    mirror.close()
    assert total == 3.0 * n, total
    print("sharded upload: total", total)


if __name__ == "__main__":
    main()
