# RUN: ok
# A helper lends a pinned buffer to compute a normalised copy of it (a fresh numpy array),
# returned to the caller while the buffer itself goes on to the next download.
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


def normalised(buf: Host) -> NDArray[np.float32]:
    with buf.lend() as view:
        values = view.read()
        peak = float(values.max())
        result: NDArray[np.float32] = (values / peak).astype(np.float32)
    return result


def main(n: int = 64) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    s.upload_staged(np.arange(1, n + 1, dtype=np.float32), to=dev).wait()
    firsts: list[float] = []
    for _ in range(2):
        s.launch(scale, 1, 64, dev, 3.0)
        out = s.download(dev, into=out).wait()
        norm = normalised(out)
        firsts.append(float(norm[0]))
    s.close()
    assert firsts == [np.float32(1.0) / np.float32(n)] * 2, firsts
    return firsts


if __name__ == "__main__":
    main()
