# RUN: ok
"""Jacobi iterations for a 1-D screened Poisson problem, with the residual norm written
by a kernel straight into mapped host memory.

The residual buffer is a one-element numpy array mapped in place with ``nx.mapped``.
Every few sweeps a kernel writes the norm through a fresh mapping; the host waits
the mapping, reads the norm and stops early once it is below the tolerance. After the
loop the final residual is measured once more through a new mapping.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float64]


@cuda.jit
def jacobi_sweep(u: Any, b: Any, v: Any, diag: float) -> None:
    n = u.size
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        left = u[i - 1] if i > 0 else 0.0
        right = u[i + 1] if i < n - 1 else 0.0
        v[i] = (b[i] + left + right) / diag


@cuda.jit
def residual_norm(u: Any, b: Any, diag: float, out: Any) -> None:
    if cuda.grid(1) == 0:
        n = u.size
        acc = 0.0
        for i in range(n):
            left = u[i - 1] if i > 0 else 0.0
            right = u[i + 1] if i < n - 1 else 0.0
            r = b[i] - (diag * u[i] - left - right)
            acc += r * r
        out[0] = math.sqrt(acc)


def solve(b: NDArray[np.float64], diag: float, tol: float, max_iter: int, check_every: int) -> tuple[NDArray[np.float64], list[float], float]:
    n = b.size
    s = nx.stream()
    d_b = nx.device_array(n, np.float64)
    s.upload_staged(b, to=d_b)
    d_u: Dev = nx.device_array(n, np.float64)
    d_v: Dev = nx.device_array(n, np.float64)
    s.upload_staged(np.zeros(n), to=d_u)
    blocks, threads = 1, 64
    res = np.zeros(1, dtype=np.float64)
    history: list[float] = []

    with nx.mapped(res) as m:
        for it in range(1, max_iter + 1):
            s.launch(jacobi_sweep, blocks, threads, d_u, d_b, d_v, diag)
            d_u, d_v = d_v, d_u
            if it % check_every:
                continue
            mapping = s.map(m)
            s.launch(residual_norm, 1, 1, d_u, d_b, diag, mapping.device)
            m = mapping.wait()
            history.append(float(m.read()[0]))
            if history[-1] < tol:
                break
        # the loop may end on max_iter between checks: measure the final iterate
        mapping = s.map(m)
        s.launch(residual_norm, 1, 1, d_u, d_b, diag, mapping.device)
        m = mapping.wait()
        final = float(m.read()[0])

    host = nx.pinned_array(n, np.float64)
    host = s.download(d_u, into=host).wait()
    u: NDArray[np.float64] = host.read().copy()
    host.free()
    for d in (d_b, d_u, d_v):
        d.free()
    s.close()
    return u, history, final


def main() -> None:
    n, diag = 64, 3.0
    x = np.linspace(0.0, 1.0, n)
    b = np.sin(np.pi * x) + 0.25 * x
    u, history, final = solve(b, diag, tol=1e-8, max_iter=200, check_every=5)
    a = diag * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)
    exact = np.linalg.solve(a, b)
    assert history and history[-1] < 1e-8, history[-3:]
    assert all(h2 < h1 for h1, h2 in zip(history, history[1:])), "residual must decrease"
    assert final <= history[-1] * (1 + 1e-12)
    assert np.allclose(u, exact, atol=1e-7), float(np.abs(u - exact).max())
    print(f"mapped_jacobi: right, converged after {5 * len(history)} sweeps, residual {final:.2e}")


if __name__ == "__main__":
    main()
