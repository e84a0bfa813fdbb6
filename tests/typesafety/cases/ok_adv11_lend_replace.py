# RUN: ok
# After a lend block: the owner itself attached in place of the lent handle; workers
# detached by a helper function inside the block; workers replaced element by element.
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

    def attach(self, st: nx.Stream[nx.Lent]) -> None:
        self.stream = st

    def run(self) -> None:
        st = self.stream
        if st is None:
            return
        self.host = st.upload(self.host, to=self.dev).wait()
        self.runs += 1


def release(ws: list[Worker]) -> None:
    for w in ws:
        w.stream = None


def main() -> None:
    s = nx.stream()
    workers = [Worker(f"w{k}") for k in range(3)]
    with s.lend() as ls:
        for w in workers:
            w.attach(ls)
        for w in workers:
            w.run()
    for w in workers:
        w.attach(s)
    for w in workers:
        w.run()
    with s.lend() as ls2:
        for w in workers:
            w.attach(ls2)
            w.run()
        release(workers)
    for w in workers:
        w.run()
    with s.lend() as ls3:
        for w in workers:
            w.attach(ls3)
    for i in range(len(workers)):
        workers[i] = Worker(f"n{i}")
    for w in workers:
        w.run()
    print([w.runs for w in workers])
    s.close()


if __name__ == "__main__":
    main()
