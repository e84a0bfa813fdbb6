# Weight replication on the device: one upload of the weights, then device-to-device
# copies fan them out to replica buffers; every copy is a transfer to complete (it
# moves no host memory, so wait() gives back None).
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
N, REPLICAS = 16, 3


def replicate(s: nx.Stream[nx.Lent], src: Dev, count: int) -> list[Dev]:
    replicas = [nx.device_array(src.shape, np.float32) for _ in range(count)]
    copies = [s.copy(src, to=r) for r in replicas]
    for c in copies:
        c.wait()
    return replicas


def main() -> None:
    s = nx.stream()
    weights = nx.pinned_copy(np.linspace(0, 1, N, dtype=np.float32))
    master = nx.device_array(N, np.float32)
    weights = s.upload(weights, to=master).wait()
    replicas = replicate(s, master, REPLICAS)
    out = nx.pinned_array(N, np.float32)
    for r in replicas:
        out = s.download(r, into=out).wait()
        assert np.array_equal(out.read(), weights.read())
    print("replicas:", len(replicas))
    s.close()


main()
