# A ragged chunked upload: one pinned array split by chunk= (the last part is short),
# each part uploaded and scaled on its own stream, the parts taken back as their
# uploads finish (polled in a `while` loop), then joined; the report reads the last
# part's size from the joined array.
# Bug: the report reads the last part through the for loop's leftover target `h`,
# which the last iteration moved into its upload (taken back only as back[i]).
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def add_index(a: Any, base: int) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += base + i


def main(n: int = 22, chunk: int = 8) -> tuple[float, int]:
    host = nx.pinned_copy(np.zeros(n, np.float32))
    dev = nx.device_array(n, np.float32)
    hp = nx.split(host, chunk=chunk)
    dp = nx.split(dev, chunk=chunk)
    streams = [nx.stream() for _ in hp]
    ups: dict[int, nx.Transfer[Host]] = {}
    for i, (s, h, d) in enumerate(zip(streams, hp, dp)):
        ups[i] = s.upload(h, to=d)
        s.launch(add_index, 1, d.size, d, i * chunk)
    print(f"last part starts with {float(h.read()[0])}")  # E: use-after-transfer "h"
    back: dict[int, Host] = {}
    while ups:
        for i in list(ups):
            if ups[i].done():
                back[i] = ups.pop(i).wait()
    host = nx.join([back[i] for i in range(len(back))])
    dev = nx.join(dp)
    last = n - chunk * (len(streams) - 1)
    out = nx.pinned_array(n, np.float32)
    out = streams[0].download(dev, into=out).wait()
    for s in streams:
        s.close()
    total = float(out.read().sum())
    assert total == float(np.arange(n).sum()), total
    return total, last


main()
