# RUN: ok
"""A streaming reader for a sharded training set: `ShardReader.batches()` is a generator
that keeps one upload in flight ahead of the batch it yields (double buffering between
two pinned buffers and two device buffers). Consumers often stop early (a validation
pass that looks at the first few batches only), so the generator must complete the
prefetch it has in flight when it is closed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["x"], writes=["out"])
@cuda.jit
def loss_kernel(x: Any, out: Any) -> None:
    if cuda.grid(1) == 0:
        acc = 0.0
        for i in range(x.size):
            acc += x[i] * x[i]
        out[0] = acc / x.size


class ShardReader:
    def __init__(self, shards: list[NDArray[np.float32]]) -> None:
        self.shards = shards
        n = shards[0].size
        self.stream = nx.stream()
        self.hosts: list[Host] = [nx.pinned_array(n, np.float32) for _ in range(2)]
        self.devs: list[Dev] = [nx.device_array(n, np.float32) for _ in range(2)]
        self.opened = 0

    def _send(self, k: int) -> nx.Transfer[Host]:
        host = self.hosts[k % 2]
        with host.write() as a:
            a[:] = self.shards[k]
        self.opened += 1
        return self.stream.upload(host, to=self.devs[k % 2])

    def batches(self) -> Iterator[tuple[int, Dev]]:
        pending = self._send(0)
        try:
            for k in range(len(self.shards)):
                self.hosts[k % 2] = pending.wait()
                if k + 1 < len(self.shards):
                    pending = self._send(k + 1)
                yield k, self.devs[k % 2]
        finally:
            if not pending.completed:
                self.hosts[(self.opened - 1) % 2] = pending.wait()

    def close(self) -> None:
        self.stream.close()


def validate(reader: ShardReader, limit: int) -> list[float]:
    s = reader.stream
    out = nx.device_array(1, np.float32)
    host = nx.pinned_array(1, np.float32)
    losses: list[float] = []
    for k, dev in reader.batches():
        s.launch(loss_kernel, 1, 32, dev, out)
        host = s.download(out, into=host).wait()
        losses.append(float(host.read()[0]))
        if k + 1 == limit:
            break
    return losses


def main() -> None:
    shards = [np.full(256, float(k + 1), dtype=np.float32) for k in range(5)]
    quick = ShardReader(shards)
    early = validate(quick, limit=2)
    quick.close()
    reader = ShardReader(shards)
    full = validate(reader, limit=10)
    reader.close()
    assert early == [1.0, 4.0], early
    assert full == [1.0, 4.0, 9.0, 16.0, 25.0], full
    print("shard_generator: ok", early, full)


if __name__ == "__main__":
    main()
