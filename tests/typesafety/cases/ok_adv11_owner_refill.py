# RUN: ok
# A batch object owns the list of transfers; collect() completes them, batch.refill()
# (a method of the owner) starts new ones into the same list, then collect() again.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def collect(ts: list[nx.Transfer[Host]]) -> list[Host]:
    return [t.wait() for t in ts]


class Batch:
    def __init__(self, s: nx.Stream[nx.Owned], n: int) -> None:
        self.s = s
        self.dev = nx.device_array(N, np.float32)
        self.pending: list[nx.Transfer[Host]] = [
            s.upload(nx.pinned_array(N, np.float32), to=self.dev) for _ in range(n)
        ]

    def refill(self, hosts: list[Host]) -> None:
        self.pending.clear()
        for h in hosts:
            self.pending.append(self.s.upload(h, to=self.dev))


def main() -> None:
    s = nx.stream()
    b = Batch(s, 3)
    hosts = collect(b.pending)
    b.refill(hosts)
    hosts = collect(b.pending)
    b.refill(hosts)
    hosts = collect(b.pending)
    b.pending = []
    print(len(hosts))
    s.close()


if __name__ == "__main__":
    main()
