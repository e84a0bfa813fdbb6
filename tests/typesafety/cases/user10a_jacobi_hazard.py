# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 79): the closure made by make_checker() reads res[0], an element of the box list that holds the buffer the pending download (line 78) fills (appended back at line 77 before the download moved it); a handle kept in a container and read through a closure another function returned is not followed
# Planted bug: the convergence closure reads the residual buffer from the shared box while the download into it is still pending (the check runs before wait()).
"""Jacobi iteration for a 1-D Poisson problem; every few sweeps the residual vector is
downloaded and a closure decides on the host whether the solver has converged."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def jacobi_sweep(u: Any, u_new: Any, f: Any, h2: float) -> None:
    for i in range(cuda.grid(1), u.size, cuda.gridsize(1)):
        if 0 < i < u.size - 1:
            u_new[i] = 0.5 * (u[i - 1] + u[i + 1] + h2 * f[i])
        else:
            u_new[i] = 0.0


@cuda.jit
def residual(u: Any, f: Any, r: Any, inv_h2: float) -> None:
    for i in range(cuda.grid(1), u.size, cuda.gridsize(1)):
        if 0 < i < u.size - 1:
            r[i] = f[i] + (u[i - 1] - 2.0 * u[i] + u[i + 1]) * inv_h2
        else:
            r[i] = 0.0


@dataclass
class JacobiConfig:
    n: int = 64
    tol: float = 1e-3
    check_every: int = 200
    max_iter: int = 6000


def make_checker(res: list[Host], tol: float, log: list[float]) -> Callable[[], bool]:
    def converged() -> bool:
        norm = float(np.abs(res[0].read()).max())
        log.append(norm)
        return norm < tol

    return converged


def solve(cfg: JacobiConfig) -> tuple[int, list[float]]:
    s = nx.stream()
    h = 1.0 / (cfg.n - 1)
    u, u_new = nx.device_array(cfg.n, np.float64), nx.device_array(cfg.n, np.float64)
    f, r = nx.device_array(cfg.n, np.float64), nx.device_array(cfg.n, np.float64)
    zeros = nx.pinned_copy(np.zeros(cfg.n))
    zeros = s.upload(zeros, to=u).wait()
    zeros = s.upload(zeros, to=u_new).wait()
    rhs = s.upload(nx.pinned_copy(np.ones(cfg.n)), to=f).wait()
    res_box: list[Host] = [nx.pinned_array(cfg.n, np.float64)]
    log: list[float] = []
    converged = make_checker(res_box, cfg.tol, log)
    it = 0
    try:
        while it < cfg.max_iter:
            for _ in range(cfg.check_every):
                s.launch(jacobi_sweep, 1, 32, u, u_new, f, h * h)
                u, u_new = u_new, u
            it += cfg.check_every
            s.launch(residual, 1, 32, u, f, r, 1.0 / (h * h))
            res_host = res_box.pop()
            res_box.append(res_host)
            down = s.download(r, into=res_host)
            if converged():  # E: use-after-transfer
                res_box[0] = down.wait()
                break
            res_box[0] = down.wait()
    finally:
        s.synchronize()
    s.close()
    for buf in (zeros, rhs, res_box[0]):
        buf.free()
    return it, log


def main() -> None:
    it, log = solve(JacobiConfig())
    assert log[-1] < JacobiConfig().tol, log[-1]
    assert log[0] > log[-1]
    print(f"jacobi converged after {it} sweeps, residual {log[-1]:.2e}")


if __name__ == "__main__":
    main()
