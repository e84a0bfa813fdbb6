# RUN: raises UseAfterTransferError via-call
# Planted bug: after passing `host` to the consuming helper, the caller refills `host` for
# the next round without taking it back from the returned transfer first.
from __future__ import annotations

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


def stage(
    buf: nx.Consumed[Host], s: nx.Stream[nx.Lent], dev: Dev
) -> nx.Transfer[Host]:
    s.launch(scale, 1, 64, dev, 0.0)
    return s.upload(buf, to=dev)


def refill(buf: Host, value: float) -> None:
    with buf.write() as a:
        a[:] = value


def main(n: int = 64) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    firsts: list[float] = []
    for value in (1.0, 2.0, 3.0):
        refill(host, value)
        up = stage(host, s, dev)
        s.launch(scale, 1, 64, dev, 3.0)
        out = s.download(dev, into=out).wait()
        firsts.append(float(out.read()[0]))
        refill(host, value + 0.5)  # E: use-after-transfer
        host = up.wait()
    s.close()
    assert firsts == [3.0, 6.0, 9.0], firsts
    return firsts


if __name__ == "__main__":
    main()
