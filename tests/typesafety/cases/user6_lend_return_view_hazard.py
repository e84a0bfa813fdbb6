# No RUN header: the runtime raises later, at the read in main(), a line the checker does not flag; it reports the cause (the line marked below).
# Planted bug: the helper returns the lent handle instead of a copy of the data (the
# developer wanted to "avoid a copy"); the caller reads it after the lend block ended (the read raises
# in main(), not on the flagged line).
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


def normalised(buf: Host) -> nx.PinnedArray[nx.Lent, np.float32]:
    with buf.lend() as view:
        return view  # E: lend-escape


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
        values = norm.read()
        firsts.append(float(values[0] / values.max()))
    s.close()
    assert firsts == [np.float32(1.0) / np.float32(n)] * 2, firsts
    return firsts


if __name__ == "__main__":
    main()
