# RUN: raises UseAfterTransferError
# Planted bug: the loop feeds the previous output back into the input buffer while the graph replay that owns it is still running, before replay.wait().
"""Reaction-diffusion steps replayed from a captured CUDA graph: the upload, one stencil
step and the download are recorded once, then replayed for each time step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def react_diffuse(src: Any, dst: Any, d: float, k: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        left = src[i - 1] if i > 0 else src[i]
        right = src[i + 1] if i < src.size - 1 else src[i]
        dst[i] = src[i] + d * (left - 2.0 * src[i] + right) - k * src[i]


@dataclass
class RDParams:
    n: int = 256
    d: float = 0.2
    k: float = 0.01
    steps: int = 5


class GraphStepper:
    def __init__(self, p: RDParams) -> None:
        self.p = p
        self.s = nx.stream()
        self.d_in = nx.device_array(p.n, np.float32)
        self.d_out = nx.device_array(p.n, np.float32)
        self.host_in: Host = nx.pinned_array(p.n, np.float32)
        self.host_out: Host = nx.pinned_array(p.n, np.float32)
        with nx.capture(self.s) as cap:
            up = self.s.upload(self.host_in, to=self.d_in)
            self.s.launch(react_diffuse, 1, 64, self.d_in, self.d_out, p.d, p.k)
            down = self.s.download(self.d_out, into=self.host_out)
        self.host_in, self.host_out = up.wait(), down.wait()
        self.graph = cap.graph

    def run(self, initial: np.ndarray[Any, np.dtype[np.float32]]) -> list[float]:
        masses = []
        with self.host_in.write() as a:
            a[:] = initial
        for _ in range(self.p.steps):
            replay = self.graph.replay(self.host_in, self.host_out)
            with self.host_in.write() as a:  # E: use-after-transfer
                a[:] = 0.0
            self.host_in, self.host_out = replay.wait()
            with self.host_in.write() as a:
                a[:] = self.host_out.read()
            masses.append(float(self.host_out.read().sum()))
        return masses

    def close(self) -> None:
        self.s.close()


def main() -> None:
    p = RDParams()
    init = np.zeros(p.n, dtype=np.float32)
    init[p.n // 2] = 10.0
    stepper = GraphStepper(p)
    masses = stepper.run(init)
    stepper.close()
    expected = [10.0 * (1.0 - p.k) ** (i + 1) for i in range(p.steps)]
    assert np.allclose(masses, expected, rtol=1e-4), masses
    print("mass per step:", [round(m, 4) for m in masses])


if __name__ == "__main__":
    main()
