# RUN: raises BorrowError
# A generator that yields inside "with self.frame.lend()" keeps the frame lent while it
# is suspended: between next(bands) and the loop that exhausts it, and in the body of
# a loop over it, the owner may only be read.
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Bands:
    def __init__(self, n: int) -> None:
        self.frame: Host = nx.pinned_array(n, np.float32)
        self.s = nx.stream()
        self.dev = nx.device_array(n, np.float32)

    def sums(self) -> Iterator[float]:
        with self.frame.lend() as view:
            data = view.read()
            for k in range(0, data.size, 4):
                yield float(data[k : k + 4].sum())

    def first_then_upload(self) -> float:
        bands = self.sums()
        total = next(bands)
        self.frame = self.s.upload(self.frame, to=self.dev).wait()  # E: owner-borrowed
        for b in bands:
            total += b
        return total

    def upload_in_loop(self) -> float:
        total = 0.0
        for b in self.sums():
            total += b
            self.frame = self.s.upload(self.frame, to=self.dev).wait()  # E: owner-borrowed
        return total


def scaled(h: Host, k: float) -> Iterator[float]:
    with h.lend() as view:
        for x in view.read():
            yield float(x) * k


def main() -> None:
    b = Bands(8)
    print(b.first_then_upload())
    print(b.upload_in_loop())
    h = nx.pinned_array(4, np.float32)
    h = b.s.upload(h, to=nx.device_array(4, np.float32)).wait()
    for v in scaled(h, 2.0):
        with h.write() as a:  # E: owner-borrowed
            a[0] = v
    b.s.close()


if __name__ == "__main__":
    main()
