# One stream per GPU, kept in a dict keyed by device id (the usual multi-GPU setup):
# each device computes a shard, downloads it into its own pinned buffer, and the host
# combines the shards once every download is waited.
# The bug: wait()'s returned handle is dropped and the moved dict entry is read.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def shard_values(a: Any, offset: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = offset + i


def main(n: int = 64) -> float:
    devices = list(range(nx.device_count()))
    streams: dict[int, nx.Stream[nx.Owned]] = {d: nx.stream(device=d) for d in devices}
    shards: dict[int, Dev] = {d: nx.device_array(n, np.float32, device=d) for d in devices}
    outs: dict[int, Host] = {d: nx.pinned_array(n, np.float32) for d in devices}
    downs: dict[int, nx.Transfer[Host]] = {}

    for d, s in streams.items():
        s.launch(shard_values, 1, 32, shards[d], float(d * n))
        downs[d] = s.download(shards[d], into=outs[d])

    total = 0.0
    for d, down in downs.items():
        down.wait()
        total += float(outs[d].read().sum())  # E: use-after-transfer "outs[d]"

    for s in streams.values():
        s.close()
    expected = float(np.arange(len(devices) * n).sum())
    assert total == expected, (total, expected)
    return total


if __name__ == "__main__":
    print(main())
