# A 1-D heat equation solved by Jacobi sweeps on two device arrays (ping-pong). Every
# `check_every` sweeps a kernel reduces max|u - v| into a one-element device array, which
# is downloaded into a pinned scalar; the host stops when it is below the tolerance. The
# check polls: while the residual's download runs, the next sweeps are enqueued.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Scalar = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def sweep(u: Any, v: Any) -> None:
    for i in range(cuda.grid(1), u.size, cuda.gridsize(1)):
        if i == 0 or i == u.size - 1:
            v[i] = u[i]
        else:
            v[i] = 0.5 * (u[i - 1] + u[i + 1])


@cuda.jit
def max_diff(u: Any, v: Any, r: Any) -> None:
    if cuda.grid(1) == 0:
        r[0] = 0.0
    cuda.syncthreads()
    for i in range(cuda.grid(1), u.size, cuda.gridsize(1)):
        cuda.atomic.max(r, 0, abs(u[i] - v[i]))


def solve(n: int = 32, tol: float = 1e-3, check_every: int = 16, max_sweeps: int = 4000) -> tuple[int, NDArray[np.float32]]:
    s = nx.stream()
    init = np.zeros(n, np.float32)
    init[0], init[-1] = 1.0, 0.0
    u = nx.device_array(n, np.float32)
    v = nx.device_array(n, np.float32)
    s.upload_staged(init, to=u)
    d_res = nx.device_array(1, np.float32)
    res: Scalar = nx.pinned_array(1, np.float32)
    pending: nx.Transfer[Scalar] | None = None
    sweeps = 0
    while sweeps < max_sweeps:
        s.launch(sweep, 1, 32, u, v)
        u, v = v, u
        sweeps += 1
        if pending is not None and pending.done():
            res = pending.wait()
            pending = None
            if float(res.read()[0]) < tol:
                break
        if sweeps % check_every == 0 and pending is None:
            s.launch(max_diff, 1, 32, u, v, d_res)
            pending = s.download(d_res, into=res)
    if pending is not None:
        res = pending.wait()
    out = nx.pinned_array(n, np.float32)
    out = s.download(u, into=out).wait()
    field: NDArray[np.float32] = out.read().copy()
    s.close()
    return sweeps, field


if __name__ == "__main__":
    sweeps, field = solve()
    assert sweeps < 4000 and field[0] == 1.0 and field[1] > field[-2], (sweeps, field)
    print(f"converged after {sweeps} sweeps")
