# RUN: ok
# Workers attached to a lent stream inside the block; after it, methods that read only
# other attributes, a detach after the block (storing None touches no handle), then runs
# that fall back to the worker's own stream.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


class Worker:
    def __init__(self, name: str) -> None:
        self.name = name
        self.own = nx.stream()
        self.host: Host = nx.pinned_array(N, np.float32)
        self.dev: Dev = nx.device_array(N, np.float32)
        self.stream: nx.Stream[nx.Lent] | None = None
        self.total = 0.0

    def attach(self, ls: nx.Stream[nx.Lent]) -> None:
        self.stream = ls

    def detach(self) -> None:
        self.stream = None

    def run(self, v: float) -> None:
        with self.host.write() as a:
            a[:] = v
        st = self.stream if self.stream is not None else self.own
        self.host = st.upload(self.host, to=self.dev).wait()
        self.total += float(self.host.read().sum())

    def report(self) -> str:
        return f"{self.name}: {self.total} ({self.host.size} elements)"


def main() -> None:
    s = nx.stream()
    workers = [Worker(f"w{k}") for k in range(2)]
    with s.lend() as ls:
        for w in workers:
            w.attach(ls)
        for w in workers:
            w.run(1.0)
    print([w.report() for w in workers])
    for w in workers:
        w.detach()
    for w in workers:
        w.run(2.0)
        w.own.close()
    print([w.report() for w in workers])
    s.close()


if __name__ == "__main__":
    main()
