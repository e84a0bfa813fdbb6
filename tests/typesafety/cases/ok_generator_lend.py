# RUN: ok
# A generator that yields inside a lend block: the owner is read (not written or moved)
# while the generator is suspended, and used again once a loop has exhausted it.
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def chunks(h: Host, size: int) -> Iterator[float]:
    with h.lend() as view:
        data = view.read()
        for k in range(0, data.size, size):
            yield float(data[k : k + size].sum())


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    h = nx.pinned_array(8, np.float32)
    with h.write() as a:
        a[:] = 1.0
    gen = chunks(h, 4)
    total = next(gen)
    peek = float(h.read()[0])  # reading the owner while it is lent is allowed
    for c in gen:
        total += c
    h = s.upload(h, to=dev).wait()  # the generator is exhausted: the lend has ended
    for c in chunks(h, 2):
        total += c + float(h.read()[1])
    h = s.upload(h, to=dev).wait()
    for first in (True, False):
        gen = chunks(h, 4)
        if first:
            total += next(gen)  # the generator stays suspended in its lend (never resumed)
        else:
            h = s.upload(h, to=dev).wait()  # another branch: no lend was taken here
    h = s.upload(h, to=dev).wait()
    assert total == 16.0 + 4 * 1.0 + 4.0 and peek == 1.0, (total, peek)
    s.close()


if __name__ == "__main__":
    main()
