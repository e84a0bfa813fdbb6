# RUN: ok
# A generator yields pinned batches filled from a dataset; the consumer uploads each batch,
# waits it, and sends the buffer back into the generator (send) to be refilled.
from __future__ import annotations

from collections.abc import Generator
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


def batches(data: NDArray[np.float32], n: int) -> Generator[Host, Host | None, None]:
    buf: Host | None = nx.pinned_array(n, np.float32)
    for start in range(0, data.size, n):
        assert buf is not None
        with buf.write() as a:
            a[:] = data[start : start + n]
        buf = yield buf


def main(n: int = 64, count: int = 4) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    acc = 0.0
    out = nx.pinned_array(n, np.float32)
    data = np.repeat(np.arange(count, dtype=np.float32), n)
    gen = batches(data, n)
    buf = next(gen)
    while True:
        up = s.upload(buf, to=dev)
        back = up.wait()
        s.launch(scale, 1, 64, dev, 2.0)
        out = s.download(dev, into=out).wait()
        acc += float(out.read().sum())
        try:
            buf = gen.send(back)
        except StopIteration:
            break
    s.close()
    assert acc == 2.0 * n * sum(range(count)), acc
    return acc


if __name__ == "__main__":
    main()
