# A dataclass whose property completes the pending download into its mirror (the tuple
# form ``self.host, self.pending = self.pending.wait(), None``) while only callers start
# that download: the take-back names the pair, so reading the property after
# ``b.pending = s.download(b.feat, into=b.host)`` reads a buffer given back.
# RUN: ok
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@dataclass
class Block:
    feat: Dev
    host: Host
    pending: nx.Transfer[Host] | None = None

    @property
    def features(self) -> NDArray[np.float32]:
        if self.pending is not None:
            self.host, self.pending = self.pending.wait(), None
        return self.host.read()

    def norm(self) -> float:
        return float(np.linalg.norm(self.features))


class Store:
    def __init__(self, s: nx.Stream[nx.Owned], shards: int, rows: int) -> None:
        self.s = s
        self.blocks = [
            Block(nx.device_array(rows, np.float32), nx.pinned_array(rows, np.float32))
            for _ in range(shards)
        ]
        self.norms: list[float] = []

    def refresh(self) -> None:
        for b in self.blocks:
            b.pending = self.s.download(b.feat, into=b.host)
        self.norms.extend(b.norm() for b in self.blocks)

    def refresh_twice(self) -> float:
        for b in self.blocks:
            b.pending = self.s.download(b.feat, into=b.host)
        return sum(float(b.features.sum()) for b in self.blocks)


def one(s: nx.Stream[nx.Owned], b: Block) -> float:
    b.pending = s.download(b.feat, into=b.host)
    return float(b.features.sum())


def main() -> None:
    s = nx.stream()
    store = Store(s, 2, 16)
    store.refresh()
    store.refresh_twice()
    one(s, store.blocks[0])
    s.close()


main()
