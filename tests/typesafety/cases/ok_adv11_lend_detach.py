# RUN: ok
# Workers get a lent stream for the block and give it back (detach) inside the block;
# after it they run on their own stream (run() falls back when none is attached).
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
        self.runs = 0

    def attach(self, ls: nx.Stream[nx.Lent]) -> None:
        self.stream = ls

    def detach(self) -> None:
        self.stream = None

    def run(self) -> None:
        ls = self.stream
        if ls is None:
            self.host = self.own.upload(self.host, to=self.dev).wait()
        else:
            self.host = ls.upload(self.host, to=self.dev).wait()
        self.runs += 1

    def close(self) -> None:
        self.own.close()


def main() -> None:
    s = nx.stream()
    workers = [Worker(f"w{k}") for k in range(3)]
    with s.lend() as ls:
        for w in workers:
            w.attach(ls)
        for w in workers:
            w.run()
        for w in workers:
            w.detach()
    for w in workers:
        w.run()
    with s.lend() as ls2:
        for w in workers:
            w.attach(ls2)
            w.run()
            w.detach()
    for w in workers:
        w.run()
        w.close()
    print([w.runs for w in workers])
    s.close()


if __name__ == "__main__":
    main()
