# RUN: ok
"""Uploading dataset shards with verification and one retry on a fallback stream.

Every shard is uploaded on the primary stream and verified on the device (a checksum
kernel, one scalar downloaded). A verification failure (injected here for one shard,
as a flaky link would produce) takes the staging buffer back from the first upload and
retries on the fallback stream. The device shards are then downloaded and compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class TransientCopyError(RuntimeError):
    """The device copy did not verify; the link may be flaky: try again."""


@cuda.jit
def checksum(x: Any, out: Any) -> None:
    if cuda.grid(1) == 0:
        acc = 0.0
        for i in range(x.size):
            acc += x[i]
        out[0] = acc


class ShardUploader:
    def __init__(self, flaky: set[tuple[int, int]]) -> None:
        self.primary, self.fallback = nx.stream(), nx.stream()
        self.sum_dev = nx.device_array(1, np.float32)
        self.sum_host = nx.pinned_array(1, np.float32)
        self.flaky = flaky
        self.retries: list[int] = []

    def _verify(self, shard: int, attempt: int, s: nx.Stream[nx.Lent], dev: Dev, expected: float) -> None:
        s.launch(checksum, 1, 1, dev, self.sum_dev)
        self.sum_host = s.download(self.sum_dev, into=self.sum_host).wait()
        got = float(self.sum_host.read()[0])
        if (shard, attempt) in self.flaky or got != expected:
            raise TransientCopyError(f"shard {shard} attempt {attempt}: {got} != {expected}")

    def send(self, shard: int, host: nx.Consumed[Host], dev: Dev) -> Host:
        """Upload ``host`` into ``dev``, verified; returns the staging buffer."""
        expected = float(host.read().sum(dtype=np.float64))
        up = self.primary.upload(host, to=dev)
        try:
            self._verify(shard, 0, self.primary, dev, expected)
        except TransientCopyError:
            self.retries.append(shard)
            host = up.wait()
            up = self.fallback.upload(host, to=dev)
            self._verify(shard, 1, self.fallback, dev, expected)
        return up.wait()

    def close(self) -> None:
        self.sum_host.free()
        self.primary.close()
        self.fallback.close()


def load_shards(shards: list[NDArray[np.float32]], flaky: set[tuple[int, int]]) -> tuple[dict[int, Dev], list[int]]:
    uploader = ShardUploader(flaky)
    on_device: dict[int, Dev] = {}
    try:
        for k, shard in enumerate(shards):
            dev = nx.device_array(shard.size, np.float32)
            staging = uploader.send(k, nx.pinned_copy(shard), dev)
            staging.free()
            on_device[k] = dev
    finally:
        retries = list(uploader.retries)
        uploader.close()
    return on_device, retries


def main() -> None:
    rng = np.random.default_rng(2)
    shards = [rng.integers(0, 50, size=40 + 8 * k).astype(np.float32) for k in range(5)]
    on_device, retries = load_shards(shards, flaky={(2, 0)})
    assert retries == [2], retries
    s = nx.stream()
    for k, dev in on_device.items():
        back = s.download(dev, into=nx.pinned_array(dev.size, np.float32)).wait()
        assert np.array_equal(back.read(), shards[k]), k
        back.free()
    s.close()
    print(f"retry_upload: {len(shards)} shards verified, retried {retries}")


if __name__ == "__main__":
    main()
