# RUN: raises UseAfterTransferError
# Planted bug: round_trip() still waits on the upload after chaining the download onto it; the chained download took the upload over (it moved into download(into=up)).
"""Jacobi iterations for a diagonally dominant tridiagonal system, a few sweeps per
round trip: the iterate is uploaded, relaxed on the device and downloaded straight
back into the same pinned buffer by chaining the download onto the upload."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 96
F64 = np.float64
Host = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def jacobi(x: Any, x_new: Any, rhs: Any, diag: float) -> None:
    i = cuda.grid(1)
    n = x.size
    if i < n:
        left = x[i - 1] if i > 0 else 0.0
        right = x[i + 1] if i < n - 1 else 0.0
        x_new[i] = (rhs[i] + left + right) / diag


def residual(x: np.ndarray[Any, Any], rhs: np.ndarray[Any, Any], diag: float) -> float:
    ax = diag * x
    ax[1:] -= x[:-1]
    ax[:-1] -= x[1:]
    return float(np.linalg.norm(ax - rhs))


def round_trip(s: nx.Stream[nx.Owned], x: nx.Consumed[Host], bufs: tuple[nx.DeviceArray[nx.Owned, np.float64], nx.DeviceArray[nx.Owned, np.float64]],
               rhs_d: nx.DeviceArray[nx.Owned, np.float64], diag: float, sweeps: int) -> nx.Transfer[Host]:
    a, b = bufs
    up = s.upload(x, to=a)
    for _ in range(sweeps):
        s.launch(jacobi, 2, 64, a, b, rhs_d, diag)
        a, b = b, a
    down = s.download(a, into=up)
    up.wait()  # E: use-after-transfer
    return down


def main(diag: float = 4.0, tol: float = 1e-8) -> None:
    rhs = np.sin(np.linspace(0.0, 3.0, N))
    s = nx.stream()
    rhs_d = nx.device_array(N, F64)
    rhs_h = s.upload(nx.pinned_copy(rhs), to=rhs_d).wait()
    bufs = (nx.device_array(N, F64), nx.device_array(N, F64))
    x = nx.pinned_array(N, F64)
    with x.write() as w:
        w[:] = 0.0
    history: list[float] = []
    for _ in range(12):
        x = round_trip(s, x, bufs, rhs_d, diag, sweeps=4).wait()
        history.append(residual(x.read().copy(), rhs_h.read(), diag))
        if history[-1] < tol:
            break
    print(f"residuals: {[f'{r:.1e}' for r in history]}")
    assert history[-1] < tol
    s.close()


if __name__ == "__main__":
    main()
