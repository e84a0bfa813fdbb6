# RUN: ok
# A ring method that takes the element straight back on some paths (self.sync): the element is not moved on every path, so a reader after it is not reported. (Found by an adversarial review.)
"""A ring with a synchronous mode: push() takes its element back at once when sync is set;
view() reads a slot only in sync mode."""
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Ring:
    def __init__(self, sync: bool) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
        self.pending: list[nx.Transfer[Host] | None] = [None, None]
        self.head = 0
        self.sync = sync

    def push(self) -> None:
        k = self.head % 2
        t = self.s.download(self.dev, into=self.bufs[k])
        self.head += 1
        if self.sync:
            self.bufs[k] = t.wait()
        else:
            self.pending[k] = t

    def push_sync(self) -> None:
        k = self.head % 2
        self.pending[k] = self.s.download(self.dev, into=self.bufs[k])
        t = self.pending[k]
        assert t is not None
        self.bufs[k] = t.wait()
        self.pending[k] = None
        self.head += 1

    def view(self) -> float:
        return float(self.bufs[(self.head - 1) % 2].read()[0])

    def close(self) -> None:
        for k in range(2):
            t = self.pending[k]
            if t is not None:
                self.bufs[k] = t.wait()
                self.pending[k] = None
        self.s.close()


def main() -> None:
    r = Ring(sync=True)
    r.push()
    print(r.view())
    r.close()
    r2 = Ring(sync=False)
    r2.push_sync()
    print(r2.view())
    r2.close()


if __name__ == "__main__":
    main()
