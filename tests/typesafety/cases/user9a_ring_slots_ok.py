# RUN: ok
"""A ring of staging slots for streaming telemetry packets to the GPU."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def fold(src: Any, acc: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        acc[i] += src[i]


class Ring:
    def __init__(self, slots: int, n: int, s: nx.Stream[nx.Lent]) -> None:
        self.s = s
        self.hosts: list[Host | None] = [nx.pinned_array(n, np.float32) for _ in range(slots)]
        self.devs: list[Dev] = [nx.device_array(n, np.float32) for _ in range(slots)]
        self.inflight: list[nx.Transfer[Host] | None] = [None] * slots
        self.head = 0

    def _reclaim(self, k: int) -> Host:
        t = self.inflight[k]
        if t is not None:
            self.inflight[k] = None
            return t.wait()
        h = self.hosts[k]
        assert h is not None
        self.hosts[k] = None
        return h

    def push(self, packet: NDArray[np.float32], acc: Dev) -> None:
        k = self.head
        host = self._reclaim(k)
        with host.write() as a:
            a[:] = packet
        self.inflight[k] = self.s.upload(host, to=self.devs[k])
        self.s.launch(fold, 1, 64, self.devs[k], acc)
        self.head = (k + 1) % len(self.devs)

    def flush(self) -> None:
        for k in range(len(self.devs)):
            self.hosts[k] = self._reclaim(k)


def main() -> None:
    s = nx.stream()
    n = 64
    acc = nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=acc)
    ring = Ring(3, n, s)
    for p in range(7):
        ring.push(np.full(n, float(p), np.float32), acc)
    ring.flush()
    out = nx.pinned_array(n, np.float32)
    out = s.download(acc, into=out).wait()
    assert np.allclose(out.read(), float(sum(range(7))))
    s.close()
    print(f"folded 7 packets: {out.read()[0]}")


if __name__ == "__main__":
    main()
