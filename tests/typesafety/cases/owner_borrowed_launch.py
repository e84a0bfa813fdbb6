# RUN: raises BorrowError
# Inside "with x.lend()", passing the owner x to a plain numba kernel through
# Stream.launch() is refused at run time (such a kernel may write every array it gets),
# and so is freeing the owner reached through the container it came from
# (tables.pop(key).free() inside "with tables[key].lend()").
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def damp(a: Any, f: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= f


@cuda.jit
def copy(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i]


def launch_owner() -> None:
    s = nx.stream()
    x = nx.device_array(8, np.float32)
    with x.lend() as view:
        print(view.shape)
        s.launch(damp, 1, 8, x, 0.5)  # E: owner-borrowed "\"x\" is passed to a kernel that may write it (its argument 0"
    s.launch(damp, 1, 8, x, 0.5)  # after the block: fine
    s.synchronize()
    s.close()


def pop_and_free(tables: dict[str, Dev], key: str) -> None:
    s = nx.stream()
    out = nx.device_array(8, np.float32)
    with tables[key].lend() as view:
        print(view.shape, out.shape)
        tables.pop(key).free()  # E: owner-borrowed "\"tables[key].free()\" is called while it is lent"
    s.synchronize()
    s.close()


if __name__ == "__main__":
    launch_owner()
