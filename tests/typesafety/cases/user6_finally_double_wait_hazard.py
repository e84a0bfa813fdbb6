# RUN: raises UseAfterTransferError
# Planted bug: the developer waits in the try block and again, unconditionally, in the
# finally clause "to be safe on the error path" (transfer completed twice).
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


def postprocess(values: NDArray[np.float32]) -> float:
    if not np.isfinite(values).all():
        raise ValueError("non-finite output")
    return float(values.mean())


def fetch_mean(s: nx.Stream[nx.Lent], dev: Dev, out: Host) -> tuple[Host, float | None]:
    down = s.download(dev, into=out)
    waited = False
    mean: float | None = None
    try:
        out = down.wait()
        waited = True
        mean = postprocess(out.read())
    except ValueError:
        mean = None
    finally:
        out = down.wait()  # E: transfer-completed-twice
    return out, mean


def main(n: int = 64) -> float | None:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    s.upload_staged(np.full(n, 3.0, dtype=np.float32), to=dev).wait()
    s.launch(scale, 1, 64, dev, 2.0)
    out = nx.pinned_array(n, np.float32)
    out, mean = fetch_mean(s, dev, out)
    s.close()
    assert mean == 6.0, mean
    return mean


if __name__ == "__main__":
    main()
