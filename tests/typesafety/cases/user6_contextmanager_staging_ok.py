# RUN: ok
# An own @contextmanager `staged_upload` hands out a pinned buffer to fill, and at exit
# uploads it and waits, so callers fill inside the block and the device has the data after.
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


class Stager:
    def __init__(self, n: int, s: nx.Stream[nx.Lent]) -> None:
        self.s = s
        self.free: list[Host] = [nx.pinned_array(n, np.float32)]
        self.keep: list[nx.Transfer[Host]] = []

    @contextmanager
    def staged_upload(self, dev: Dev) -> Iterator[NDArray[np.float32]]:
        buf = self.free.pop()
        with buf.write() as view:
            yield view
        up = self.s.upload(buf, to=dev)
        self.free.append(up.wait())


def main(n: int = 64) -> list[float]:
    s = nx.stream()
    stager = Stager(n, s)
    devs = [nx.device_array(n, np.float32) for _ in range(3)]
    for k, dev in enumerate(devs):
        with stager.staged_upload(dev) as a:
            a[:] = float(k + 1)
        s.launch(scale, 1, 64, dev, 2.0)
    out = nx.pinned_array(n, np.float32)
    firsts: list[float] = []
    for dev in devs:
        out = s.download(dev, into=out).wait()
        firsts.append(float(out.read()[0]))
    for t in stager.keep:
        t.wait()
    s.close()
    assert firsts == [2.0, 4.0, 6.0], firsts
    return firsts


if __name__ == "__main__":
    main()
