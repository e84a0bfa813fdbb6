# RUN: ok
# Launches inside a lend block that check clean: the owner passed to an nx.kernel whose
# intents say it only reads it (a lent array may be read), the lent view passed to it,
# another array passed to a plain numba kernel, and the owner after the block.
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i] + 1.0


@cuda.jit
def damp(a: Any, f: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= f


def main() -> None:
    s = nx.stream()
    x = nx.device_array(8, np.float32)
    y = nx.device_array(8, np.float32)
    with x.lend() as view:
        s.launch(affine, 1, 8, view, y)
        s.launch(affine, 1, 8, x, y)
        s.launch(damp, 1, 8, y, 0.5)
    s.launch(damp, 1, 8, x, 0.5)
    s.synchronize()
    s.close()


if __name__ == "__main__":
    main()
