# RUN: ok
"""Conjugate gradient for a diagonal SPD system, with the dot products finished on the
host: a helper completes each partial-product download and returns the scalar."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]


@cuda.jit
def mul(a: Any, b: Any, out: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        out[i] = a[i] * b[i]


@dataclass
class CGConfig:
    n: int = 128
    iters: int = 6


def fetch_scalar(t: nx.Transfer[Host]) -> tuple[float, Host]:
    buf = t.wait()
    return float(buf.read().sum()), buf


class DiagonalCG:
    def __init__(self, cfg: CGConfig) -> None:
        self.s = nx.stream()
        self.cfg = cfg
        self.diag = np.linspace(1.0, 4.0, cfg.n)
        self.d_a: Dev = nx.device_array(cfg.n, np.float64)
        self.d_b: Dev = nx.device_array(cfg.n, np.float64)
        self.d_out: Dev = nx.device_array(cfg.n, np.float64)
        self.scratch: Host = nx.pinned_array(cfg.n, np.float64)
        self.stage: Host = nx.pinned_array(cfg.n, np.float64)

    def dot(self, a: np.ndarray[Any, np.dtype[np.float64]], b: np.ndarray[Any, np.dtype[np.float64]]) -> float:
        for src, dev in ((a, self.d_a), (b, self.d_b)):
            with self.stage.write() as w:
                w[:] = src
            self.stage = self.s.upload(self.stage, to=dev).wait()
        self.s.launch(mul, 1, 64, self.d_a, self.d_b, self.d_out)
        value, self.scratch = fetch_scalar(self.s.download(self.d_out, into=self.scratch))
        return value

    def solve(self, rhs: np.ndarray[Any, np.dtype[np.float64]]) -> np.ndarray[Any, np.dtype[np.float64]]:
        x = np.zeros_like(rhs)
        r = rhs.copy()
        p = r.copy()
        rr = self.dot(r, r)
        for _ in range(self.cfg.iters):
            ap = self.diag * p
            alpha = rr / self.dot(p, ap)
            x += alpha * p
            r -= alpha * ap
            rr_new = self.dot(r, r)
            p = r + (rr_new / rr) * p
            rr = rr_new
        return x

    def close(self) -> None:
        self.s.close()


def main() -> None:
    cfg = CGConfig()
    cg = DiagonalCG(cfg)
    rhs = np.ones(cfg.n)
    x = cg.solve(rhs)
    cg.close()
    err = float(np.abs(cg.diag * x - rhs).max())
    assert err < 1e-2, err
    print(f"CG residual after {cfg.iters} iterations: {err:.2e}")


if __name__ == "__main__":
    main()
