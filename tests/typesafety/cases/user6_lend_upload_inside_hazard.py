# RUN: raises BorrowError
# Planted bug: the upload was put inside the lend block, so the owner is moved while it is
# lent (the developer thought an upload only reads, like the lend).
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


def checksum(view: nx.PinnedArray[nx.Lent, np.float32]) -> int:
    data = view.read()
    return int(np.bitwise_xor.reduce(data.view(np.uint32)))


def checkpoint(s: nx.Stream[nx.Lent], params: Host, dev: Dev) -> tuple[Host, int]:
    with params.lend() as view:
        digest = checksum(view)
        up = s.upload(params, to=dev)  # E: owner-borrowed
        params = up.wait()
    return params, digest


def main(n: int = 64) -> int:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    params = nx.pinned_copy(np.linspace(0.0, 1.0, n, dtype=np.float32))
    params, digest = checkpoint(s, params, dev)
    s.launch(scale, 1, 64, dev, 1.0)
    back = s.download(dev, into=nx.pinned_array(n, np.float32)).wait()
    with back.lend() as v:
        again = checksum(v)
    s.close()
    assert again == digest, (again, digest)
    return digest


if __name__ == "__main__":
    main()
