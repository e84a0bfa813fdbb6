# A gather: many small per-shard results are downloaded into their own pinned buffers,
# collected in one list, and concatenated on the host once every download is back.
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.int32]
Dev = nx.DeviceArray[nx.Owned, np.int32]
SHARDS, PER = 6, 4


def load_shards(s: nx.Stream[nx.Lent]) -> list[Dev]:
    devs: list[Dev] = []
    for i in range(SHARDS):
        dev = nx.device_array(PER, np.int32)
        src = nx.pinned_copy(np.arange(i * PER, (i + 1) * PER, dtype=np.int32))
        src = s.upload(src, to=dev).wait()
        devs.append(dev)
    return devs


def gather(s: nx.Stream[nx.Lent], devs: list[Dev]) -> NDArray[np.int32]:
    downs: list[nx.Transfer[Host]] = []
    for dev in devs:
        buf = nx.pinned_array(dev.shape, np.int32)
        downs.append(s.download(dev, into=buf))
    parts = [d.wait() for d in downs]
    return np.concatenate([p.read() for p in parts])


def main() -> None:
    s = nx.stream()
    devs = load_shards(s)
    whole = gather(s, devs)
    assert np.array_equal(whole, np.arange(SHARDS * PER, dtype=np.int32))
    print("gathered", whole.size, "values from", len(devs), "shards")
    s.close()


main()
