# RUN: ok
# A function downloads a result and validates a flag array meanwhile; on a failed
# validation it still completes the download before returning None.
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


def fetch_checked(
    s: nx.Stream[nx.Lent], dev: Dev, out: Host, flags: NDArray[np.bool_]
) -> tuple[Host | None, float | None]:
    down = s.download(dev, into=out)
    if not flags.all():
        back = down.wait()
        return back, None
    back = down.wait()
    return back, float(back.read().sum())


def main(n: int = 64) -> list[float | None]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    s.upload_staged(np.ones(n, dtype=np.float32), to=dev).wait()
    s.launch(scale, 1, 64, dev, 4.0)
    results: list[float | None] = []
    spare: Host | None = nx.pinned_array(n, np.float32)
    for good in (True, False, True):
        flags = np.full(8, good)
        if spare is None:
            spare = nx.pinned_array(n, np.float32)
        spare, value = fetch_checked(s, dev, spare, flags)
        results.append(value)
    s.close()
    assert results == [4.0 * n, None, 4.0 * n], results
    return results


if __name__ == "__main__":
    main()
