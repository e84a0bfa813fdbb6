# One big pinned array split into shards, one stream per shard (like splitting a batch
# across CUDA streams): each shard is uploaded, scaled and downloaded back into its own
# part; the parts are joined once every transfer has given its part back.
# The bug: the parts list that was split is joined right away; the waits come after,
# so join() takes parts that the downloads still own.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


def scale_sharded(host: nx.Consumed[Host], factor: float, shards: int) -> Host:
    dev = nx.device_array(host.shape, np.float32)
    streams = [nx.stream() for _ in range(shards)]
    h_parts = nx.split(host, shards)
    d_parts = nx.split(dev, shards)
    downs: list[nx.Transfer[Host]] = []
    for s, h, d in zip(streams, h_parts, d_parts):
        up = s.upload(h, to=d)
        s.launch(scale, 1, 32, d, factor)
        downs.append(s.download(d, into=up))  # the same part comes back with the result
    result = nx.join(h_parts)  # E: use-after-transfer "h_parts"
    for t in downs:
        t.wait()
    dev = nx.join(d_parts)
    dev.free()
    for s in streams:
        s.close()
    return result


def main(n: int = 100, shards: int = 4) -> None:
    host = nx.pinned_copy(np.arange(n, dtype=np.float32))
    host = scale_sharded(host, 3.0, shards)
    assert np.array_equal(host.read(), 3.0 * np.arange(n, dtype=np.float32))


if __name__ == "__main__":
    main()
