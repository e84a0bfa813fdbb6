# RUN: ok
"""A time-stepping solver that fetches diagnostics with a retry wrapper: a diagnostic
that fails validation is re-downloaded, and cleanup lives in try/finally."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def decay(u: Any, rate: float) -> None:
    for i in range(cuda.grid(1), u.size, cuda.gridsize(1)):
        u[i] = u[i] * (1.0 - rate)


class DiagnosticError(RuntimeError):
    pass


@dataclass
class Diagnostics:
    values: list[float] = field(default_factory=list)
    retries: int = 0


class DecaySolver:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.u = nx.device_array(n, np.float64)
        self.buf: Host = nx.pinned_copy(np.ones(n))
        self.buf = self.s.upload(self.buf, to=self.u).wait()
        self.diag = Diagnostics()

    def fetch(self, attempts: int = 2) -> float:
        for attempt in range(attempts):
            down = self.s.download(self.u, into=self.buf)
            try:
                self.buf = down.wait()
                value = float(self.buf.read().mean())
                if not np.isfinite(value):
                    raise DiagnosticError(f"non-finite mean on attempt {attempt}")
                return value
            except DiagnosticError:
                self.diag.retries += 1
        raise DiagnosticError("diagnostic failed after retries")

    def run(self, steps: int) -> Diagnostics:
        try:
            for _ in range(steps):
                self.s.launch(decay, 1, 64, self.u, 0.1)
                self.diag.values.append(self.fetch())
        finally:
            self.s.synchronize()
        return self.diag

    def close(self) -> None:
        self.s.close()
        self.buf.free()


def main() -> None:
    solver = DecaySolver(256)
    diag = solver.run(4)
    solver.close()
    assert np.allclose(diag.values, [0.9 ** (k + 1) for k in range(4)])
    print("means:", [round(v, 4) for v in diag.values], "retries:", diag.retries)


if __name__ == "__main__":
    main()
