# An iterative solver that reports its residual through mapped (zero-copy) memory:
# each sweep maps the one-element residual buffer, a kernel writes it, and the host
# reads it after the mapping's wait() to decide whether to stop.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 16


@cuda.jit
def relax(u: Any, residual: Any) -> None:
    i = cuda.grid(1)
    if i < u.size:
        u[i] = 0.5 * u[i]
    if i == 0:
        residual[0] = abs(u[0])


def solve(tol: float, max_sweeps: int) -> tuple[int, float]:
    s = nx.stream()
    u = nx.device_array(N, np.float32)
    init = nx.pinned_copy(np.ones(N, np.float32))
    init = s.upload(init, to=u).wait()
    res = nx.mapped_array(1, np.float32)
    sweeps, last = 0, float("inf")
    while sweeps < max_sweeps:
        mp = s.map(res)
        s.launch(relax, 1, N, u, mp.device)
        res = mp.wait()
        sweeps += 1
        last = float(res.read()[0])
        if last < tol:
            break
    s.close()
    return sweeps, last


sweeps, last = solve(1e-2, 20)
assert sweeps == 7 and last < 1e-2, (sweeps, last)
print(f"converged after {sweeps} sweeps, residual {last:.4f}")
