# Correct shapes of the batch: collect() takes the transfer out of the dict as it
# completes it (pop), close() skips the ones already collected, or collects under the
# same test; a method call between them that rebuilds the dict ends what is known.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Img = nx.PinnedArray[nx.Owned, np.float32]


class Popping:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.pending: dict[str, nx.Transfer[Img]] = {}
        self.done: dict[str, Img] = {}

    def add(self, name: str, n: int) -> None:
        dev = nx.device_array(n, np.float32)
        self.pending[name] = self.s.download(dev, into=nx.pinned_array(n, np.float32))

    def collect(self, name: str) -> float:
        if name not in self.done:
            self.done[name] = self.pending.pop(name).wait()
        return float(self.done[name].read().sum())

    def close(self) -> None:
        for name, down in self.pending.items():
            self.done[name] = down.wait()
        self.pending.clear()
        self.s.close()


class Skipping:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.pending: dict[str, nx.Transfer[Img]] = {}
        self.done: dict[str, Img] = {}

    def add(self, name: str, n: int) -> None:
        dev = nx.device_array(n, np.float32)
        self.pending[name] = self.s.download(dev, into=nx.pinned_array(n, np.float32))

    def collect(self, name: str) -> float:
        if name not in self.done:
            self.done[name] = self.pending[name].wait()
        return float(self.done[name].read().sum())

    def close(self) -> None:
        for name, down in self.pending.items():
            if name in self.done:
                continue
            self.done[name] = down.wait()
        self.pending.clear()

    def close_guarded(self) -> None:
        for name, down in self.pending.items():
            if name not in self.done:
                self.done[name] = down.wait()
        self.pending.clear()

    def prune(self) -> None:
        self.pending = {k: t for k, t in self.pending.items() if k not in self.done}


def main() -> None:
    p = Popping()
    p.add("a", 8)
    p.add("b", 8)
    p.collect("b")
    p.close()
    for close in ("skip", "guarded", "prune"):
        k = Skipping()
        k.add("a", 8)
        k.add("b", 8)
        k.collect("b")
        if close == "skip":
            k.close()
        elif close == "guarded":
            k.close_guarded()
        else:
            k.prune()
            for down in k.pending.values():
                down.wait()
            k.pending.clear()
        k.s.close()


main()
