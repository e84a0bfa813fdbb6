# RUN: raises BorrowError
# Planted bug: the damping pass was folded into the monitor block and writes x_old while it is lent as `cur`.
"""Jacobi-style relaxation with ping-pong device arrays and a lent residual monitor."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

DevF = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["src", "target"], writes=["dst"])
@cuda.jit
def relax(src: Any, dst: Any, target: Any) -> None:
    for i in range(cuda.grid(1), dst.size, cuda.gridsize(1)):
        dst[i] = 0.5 * (src[i] + target[i])


@nx.kernel(reads=["cur", "target"], writes=["res"])
@cuda.jit
def residual(cur: Any, target: Any, res: Any) -> None:
    if cuda.grid(1) == 0:
        worst = 0.0
        for i in range(cur.size):
            d = abs(cur[i] - target[i])
            if d > worst:
                worst = d
        res[0] = worst


@cuda.jit
def damp(a: Any, factor: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


def solve(n: int, tol: float, max_iter: int = 64, check_every: int = 4) -> tuple[int, float]:
    s = nx.stream()
    target = nx.device_array(n, np.float32)
    s.upload(nx.pinned_copy(np.linspace(1.0, 2.0, n, dtype=np.float32)), to=target).wait()
    x_old: DevF = nx.device_array(n, np.float32)
    x_new: DevF = nx.device_array(n, np.float32)
    s.upload(nx.pinned_copy(np.full(n, 100.0, np.float32)), to=x_old).wait()
    res_dev = nx.device_array(1, np.float32)
    res_host = nx.pinned_array(1, np.float32)
    worst = float("inf")
    it = 0
    for it in range(1, max_iter + 1):
        relax[1, 64, s](x_old, x_new, target)
        x_old, x_new = x_new, x_old
        if it % check_every:
            continue
        with x_old.lend() as cur:
            residual[1, 64, s](cur, target, res_dev)
            res_host = s.download(res_dev, into=res_host).wait()
            if it == check_every:
                s.launch(damp, 1, 64, x_old, 0.5)  # E: owner-borrowed
        worst = float(res_host.read()[0])
        if worst < tol:
            break
    for d in (target, x_old, x_new, res_dev):
        d.free()
    s.close()
    return it, worst


def main() -> tuple[int, float]:
    it, worst = solve(64, 1e-3)
    assert worst < 1e-3 and it % 4 == 0, (it, worst)
    return it, worst


if __name__ == "__main__":
    main()
