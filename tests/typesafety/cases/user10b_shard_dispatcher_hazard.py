# RUN: raises UseAfterTransferError
# XFAIL: miss (line 62): dispatch() keeps the split parts in self.parts and moves each (as the loop variable h of zip(...)) into the downloads it returns; gather() joins self.parts; an alias of moved elements kept in another attribute is not followed
# Planted bug: gather() joins the shard handles remembered from dispatch(), which were moved into their transfers, instead of the ones wait() returned.
"""Shard dispatcher: one pinned input split into shards, each dispatched to its own
stream, results joined back into one array.

``ShardDispatcher`` splits the host and device arrays with ``nx.split``, uploads each
shard on a stream from its ring, launches the kernel per shard and downloads into the
same host shard. ``gather`` completes every shard's transfer and joins the parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def shard_kernel(a: Any, shard: int) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] + 100.0 * shard


@dataclass
class ShardTask:
    index: int
    stream: nx.Stream[nx.Owned]
    dev: Dev
    transfer: nx.Transfer[Host]


class ShardDispatcher:
    def __init__(self, shards: int) -> None:
        self.streams = [nx.stream() for _ in range(shards)]
        self.shards = shards
        self.parts: list[Host] = []

    def dispatch(self, host: Host, dev: Dev) -> list[ShardTask]:
        host_parts = nx.split(host, self.shards)
        dev_parts = nx.split(dev, self.shards)
        self.parts = host_parts
        tasks: list[ShardTask] = []
        for k, (s, h, d) in enumerate(zip(self.streams, host_parts, dev_parts)):
            h = s.upload(h, to=d).wait()
            s.launch(shard_kernel, (d.size + 63) // 64, 64, d, k)
            tasks.append(ShardTask(k, s, d, s.download(d, into=h)))
        return tasks

    def gather(self, tasks: list[ShardTask]) -> tuple[Host, Dev]:
        host_parts = [t.transfer.wait() for t in tasks]
        dev_parts = [t.dev for t in tasks]
        assert len(host_parts) == len(self.parts)
        host = nx.join(self.parts)  # E: use-after-transfer
        self.parts = []
        return host, nx.join(dev_parts)

    def close(self) -> None:
        for s in self.streams:
            s.close()


def main() -> None:
    n, shards = 1000, 4
    host = nx.pinned_copy(np.arange(n, dtype=np.float32))
    dev = nx.device_array(n, np.float32)
    dispatcher = ShardDispatcher(shards)
    tasks = dispatcher.dispatch(host, dev)
    host, dev = dispatcher.gather(tasks)
    dispatcher.close()
    got = host.read()
    bounds = np.array_split(np.arange(n), shards)
    expected = np.concatenate([b + 100.0 * k for k, b in enumerate(bounds)]).astype(np.float32)
    assert np.array_equal(got, expected), got[:5]
    print("shard_dispatcher ok", float(got.sum()))


if __name__ == "__main__":
    main()
