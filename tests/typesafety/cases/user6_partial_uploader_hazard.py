# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 47, silence by design): the uploaders are typed Callable[[Host], Transfer[Host]] (the alias drops nx.Consumed), so a call through the table moves nothing as far as the types say; the second move of buf through up["right"] is not reported
# Planted bug: the loop calls two partial uploaders with the same pinned buffer back to
# back, completing only the second (the first still owns the buffer: the second move raises).
from __future__ import annotations
import functools
from collections.abc import Callable
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


Uploader = Callable[[Host], nx.Transfer[Host]]


def make_uploaders(s: nx.Stream[nx.Lent], devs: dict[str, Dev]) -> dict[str, Uploader]:
    table: dict[str, Uploader] = {}
    for name, dev in devs.items():
        table[name] = functools.partial(upload_into, s, dev)
    return table


def upload_into(s: nx.Stream[nx.Lent], dev: Dev, buf: nx.Consumed[Host]) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


def main(n: int = 64) -> dict[str, float]:
    s = nx.stream()
    devs = {"left": nx.device_array(n, np.float32), "right": nx.device_array(n, np.float32)}
    up = make_uploaders(s, devs)
    buf = nx.pinned_copy(np.full(n, 2.0, dtype=np.float32))
    first = up["left"](buf)
    buf = up["right"](buf).wait()  # E: use-after-transfer
    first.wait()
    s.launch(scale, 1, 64, devs["left"], 3.0)
    s.launch(scale, 1, 64, devs["right"], 5.0)
    out: dict[str, float] = {}
    for name, dev in devs.items():
        buf = s.download(dev, into=buf).wait()
        out[name] = float(buf.read()[0])
    s.close()
    assert out == {"left": 6.0, "right": 10.0}, out
    return out


if __name__ == "__main__":
    main()
