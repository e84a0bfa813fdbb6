# RUN: ok
# A lent stream attached to workers in one block; after it, a fresh lend of the same
# stream is attached before they run again, other attributes are read in between, and
# a new set of workers replaces the old one.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


class Worker:
    def __init__(self, name: str) -> None:
        self.name = name
        self.host: Host = nx.pinned_array(N, np.float32)
        self.dev: Dev = nx.device_array(N, np.float32)
        self.stream: nx.Stream[nx.Lent] | None = None
        self.runs = 0

    def attach(self, ls: nx.Stream[nx.Lent]) -> None:
        self.stream = ls

    def run(self) -> None:
        ls = self.stream
        assert ls is not None, "attach() first"
        self.host = ls.upload(self.host, to=self.dev).wait()
        self.runs += 1

    def label(self) -> str:
        return f"{self.name} ran {self.runs}x"


def main() -> None:
    s = nx.stream()
    workers = [Worker(f"w{k}") for k in range(3)]
    with s.lend() as ls:
        for w in workers:
            w.attach(ls)
        for w in workers:
            w.run()
    print([w.label() for w in workers])
    with s.lend() as again:
        for w in workers:
            w.attach(again)
        for w in workers:
            w.run()
    workers = [Worker(f"n{k}") for k in range(2)]
    with s.lend() as third:
        for w in workers:
            w.attach(third)
            w.run()
    print([w.label() for w in workers])
    s.close()


if __name__ == "__main__":
    main()
