# Device arrays handed to read-only consumers through lends: a "foreign library"
# function looks at the lent view's shape and dtype, and an nx.kernel with
# declared read intents takes the lent view while writing an owned output. Each lent
# view is used only inside its block.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

DevView = nx.DeviceArray[nx.Lent, np.float32]


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def shifted(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i] + 10.0


def foreign_describe(obj: Any) -> str:
    """Stands in for a library that only looks at an array's metadata."""
    return f"shape={tuple(obj.shape)} typestr={obj.dtype.str}"


def describe(dev: nx.DeviceArray[nx.Owned, np.float32]) -> str:
    with dev.lend() as view:
        return foreign_describe(view)


def apply(s: nx.Stream[nx.Owned], src: nx.DeviceArray[nx.Owned, np.float32], n: int) -> nx.DeviceArray[nx.Owned, np.float32]:
    out = nx.device_array(n, np.float32)
    with src.lend() as view:
        shifted[1, n, s](view, out)
    return out


def main(n: int = 8) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_copy(np.arange(n, dtype=np.float32))
    host = s.upload(host, to=dev).wait()
    info = describe(dev)
    out = apply(s, dev, n)
    host = s.download(out, into=host).wait()
    total = float(host.read().sum())
    s.close()
    assert info == f"shape=({n},) typestr=<f4", info
    assert total == float(np.arange(n).sum() + 10 * n), total
    return total


main()
