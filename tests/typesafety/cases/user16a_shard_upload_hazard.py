# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 58): self.parts still holds the handles moved into the uploads; the ones wait() returned were dropped
# Planted bug: self.parts still holds the handles moved into the uploads; the ones wait() returned were dropped
"""A sharded embedding-table upload: one big pinned table is split into shards, each
shard goes up on its own stream, a per-shard kernel scales it, and the shards come back
into the same pinned memory. `ShardedTable.finish()` collects every shard and joins the
table again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(src: Any, dst: Any, factor: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] * factor


class ShardedTable:
    def __init__(self, rows: int, shards: int) -> None:
        self.streams = [nx.stream() for _ in range(shards)]
        self.table: Host | None = nx.pinned_array(rows, np.float32)
        self.d_in = nx.split(nx.device_array(rows, np.float32), shards)
        self.d_out = nx.split(nx.device_array(rows, np.float32), shards)
        self.shards = shards
        self.parts: list[Host] = []
        self.inflight: list[nx.Transfer[Host]] = []

    def load(self, values: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        assert self.table is not None
        with self.table.write() as a:
            a[:] = values

    def start(self, factors: list[float]) -> None:
        assert self.table is not None
        self.parts = nx.split(self.table, self.shards)
        self.table = None
        for i, part in enumerate(self.parts):
            s = self.streams[i]
            up = s.upload(part, to=self.d_in[i])
            s.launch(scale, 1, 64, self.d_in[i], self.d_out[i], factors[i])
            self.inflight.append(s.download(self.d_out[i], into=up))

    def finish(self) -> Host:
        for down in self.inflight:
            down.wait()
        self.inflight.clear()
        table = nx.join(self.parts)  # E: transfer-completed-twice
        self.parts = []
        return table

    def close(self) -> None:
        for s in self.streams:
            s.close()


def main() -> None:
    rows, shards = 1000, 4
    values = np.linspace(0.0, 1.0, rows, dtype=np.float32)
    factors = [1.0, 2.0, 3.0, 4.0]
    t = ShardedTable(rows, shards)
    t.load(values)
    t.start(factors)
    table = t.finish()
    t.close()
    got = table.read()
    sizes = [len(c) for c in np.array_split(np.arange(rows), shards)]
    edges = np.cumsum([0] + sizes)
    expect = values.copy()
    for i in range(shards):
        expect[edges[i] : edges[i + 1]] *= np.float32(factors[i])
    assert np.allclose(got, expect), "sharded table: wrong result"
    print("shard_upload: ok", round(float(got.sum(dtype=np.float64)), 3))


if __name__ == "__main__":
    main()
