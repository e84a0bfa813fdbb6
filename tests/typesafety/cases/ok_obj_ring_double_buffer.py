# RUN: ok
# Double buffering on self: push() downloads into slot k and takes the other slot j back; ready() reads slot j. A method that stores another element by another index is no ring (silence). (Found by an adversarial review.)
"""Double buffering: push() downloads into slot k and completes the other slot;
ready() reads the completed (other) slot."""
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Double:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
        self.pending: list[nx.Transfer[Host] | None] = [None, None]
        self.head = 0

    def push(self) -> None:
        k = self.head % 2
        self.pending[k] = self.s.download(self.dev, into=self.bufs[k])
        j = (self.head + 1) % 2
        t = self.pending[j]
        if t is not None:
            self.bufs[j] = t.wait()
            self.pending[j] = None
        self.head += 1

    def ready(self) -> float:
        j = self.head % 2  # the slot push() completed
        return float(self.bufs[j].read()[0])

    def close(self) -> None:
        for k in range(2):
            t = self.pending[k]
            if t is not None:
                self.bufs[k] = t.wait()
                self.pending[k] = None
        self.s.close()


def main() -> None:
    d = Double()
    d.push()
    d.push()
    print(d.ready())
    d.close()


if __name__ == "__main__":
    main()
