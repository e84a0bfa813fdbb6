# RUN: raises BorrowError
# Planted bug: the kernel launch was dedented out of the `with self.stream.lend()` block and still goes through the expired lent stream.
"""A polynomial evaluator behind a context manager that owns its stream: callers get
a lent stream for their own copies, the manager synchronizes and closes on exit."""
from __future__ import annotations

from types import TracebackType
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

F64 = np.float64
N = 128


@cuda.jit
def horner(x: Any, coeffs: Any, y: Any) -> None:
    i = cuda.grid(1)
    if i < x.size:
        acc = 0.0
        for k in range(coeffs.size):
            acc = acc * x[i] + coeffs[k]
        y[i] = acc


class PolyEngine:
    def __init__(self, degree: int) -> None:
        self.stream = nx.stream()
        self.coeffs_d = nx.device_array(degree + 1, F64)
        self.x_d = nx.device_array(N, F64)
        self.y_d = nx.device_array(N, F64)

    def __enter__(self) -> PolyEngine:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stream.synchronize()
        self.stream.close()

    def load(self, coeffs: nx.Consumed[nx.PinnedArray[nx.Owned, np.float64]],
             x: nx.Consumed[nx.PinnedArray[nx.Owned, np.float64]]) -> tuple[nx.PinnedArray[nx.Owned, np.float64], nx.PinnedArray[nx.Owned, np.float64]]:
        with self.stream.lend() as ls:
            tc = ls.upload(coeffs, to=self.coeffs_d)
            tx = ls.upload(x, to=self.x_d)
            coeffs, x = tc.wait(), tx.wait()
        ls.launch(horner, 2, 64, self.x_d, self.coeffs_d, self.y_d)  # E: lend-escape
        return coeffs, x

    def result(self, into: nx.Consumed[nx.PinnedArray[nx.Owned, np.float64]]) -> nx.PinnedArray[nx.Owned, np.float64]:
        return self.stream.download(self.y_d, into=into).wait()


def main() -> None:
    c = np.array([1.0, -3.0, 0.5, 2.0])
    xs = np.linspace(-2.0, 2.0, N)
    coeffs, x = nx.pinned_copy(c), nx.pinned_copy(xs)
    y = nx.pinned_array(N, F64)
    with PolyEngine(degree=c.size - 1) as eng:
        coeffs, x = eng.load(coeffs, x)
        y = eng.result(y)
    err = float(np.max(np.abs(y.read() - np.polyval(c, xs))))
    print(f"max |horner - polyval| = {err:.2e}")
    assert err < 1e-12


if __name__ == "__main__":
    main()
