# RUN: ok
# Double buffering: the front buffer is lent to a reader while the producer flips the
# buffers (a method rebinding self.front / self.back) and fills the new front, which is
# the old back, not the lent buffer. Correct at run time.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
N = 16


class DoubleBuffer:
    def __init__(self) -> None:
        self.front: Host = nx.pinned_array(N, np.float64)
        self.back: Host = nx.pinned_array(N, np.float64)
        self.step = 0

    def _flip(self) -> None:
        self.front, self.back = self.back, self.front

    def advance(self) -> None:
        """Make the back buffer the front one and fill it."""
        self._flip()
        with self.front.write() as a:
            a[:] = float(self.step)
        self.step += 1

    def publish(self) -> float:
        with self.back.lend() as prev:
            # readers keep looking at the previous frame while we produce the next
            before = float(prev.read().sum())
        with self.front.lend() as shown:
            self.advance()  # flips first: writes the old back, not `shown`'s owner
            seen = float(shown.read()[0])
        return before + seen

    def close(self) -> None:
        self.front.free()
        self.back.free()


def main() -> None:
    db = DoubleBuffer()
    for _ in range(3):
        print(db.publish())
    db.close()


main()
