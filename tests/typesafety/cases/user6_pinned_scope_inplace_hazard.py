# RUN: raises UnfinishedTransferError
# Planted bug: the second download is waited after the block instead of inside it (the
# developer moved the wait out "to overlap with the next block"); the block end refuses
# (the raise is at the `with nx.pinned(...)` block's exit, not on the flagged line).
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


def transform_pair(
    s: nx.Stream[nx.Lent], a: NDArray[np.float32], b: NDArray[np.float32]
) -> None:
    da = nx.device_array(a.shape, np.float32)
    db = nx.device_array(b.shape, np.float32)
    with nx.pinned(a, b) as (ha, hb):  # E: unfinished-transfer "down_b"
        ua = s.upload(ha, to=da)
        ub = s.upload(hb, to=db)
        s.launch(scale, 1, 64, da, 2.0)
        s.launch(scale, 1, 64, db, 3.0)
        ha = s.download(da, into=ua).wait()
        down_b = s.download(db, into=ub)  # (reported on the block's with line)
    hb = down_b.wait()
    da.free()
    db.free()


def main(n: int = 64) -> float:
    s = nx.stream()
    a = np.ones(n, dtype=np.float32)
    b = np.ones(n, dtype=np.float32)
    transform_pair(s, a, b)
    s.close()
    assert float(a[0]) == 2.0 and float(b[0]) == 3.0, (a[0], b[0])
    return float(a[0] + b[0])


if __name__ == "__main__":
    main()
