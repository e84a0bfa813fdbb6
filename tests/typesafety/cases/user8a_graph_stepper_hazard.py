# RUN: raises UseAfterTransferError
# Planted bug: step() copies the result out of h_out right after replay(), before run.wait() has handed the buffers back.
"""A simulation stepper that captures one upload -> kernel -> download step as a graph in
its constructor and replays it per time step, with two pairs of host buffers."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def decay(src: Any, dst: Any, rate: float) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i] * rate


class GraphStepper:
    def __init__(self, n: int) -> None:
        self.n = n
        self.stream = nx.stream()
        self.d_in: Dev = nx.device_array(n, np.float32)
        self.d_out: Dev = nx.device_array(n, np.float32)
        h_in: Host = nx.pinned_array(n, np.float32)
        h_out: Host = nx.pinned_array(n, np.float32)
        with h_in.write() as a:
            a[:] = 0.0
        with nx.capture(self.stream) as cap:
            up = self.stream.upload(h_in, to=self.d_in)
            self.stream.launch(decay, 1, n, self.d_in, self.d_out, 0.5)
            down = self.stream.download(self.d_out, into=h_out)
        self.h_in, self.h_out = up.wait(), down.wait()
        self.graph = cap.graph
        self.steps = 0

    def step(self, state: np.ndarray[Any, np.dtype[np.float32]]) -> np.ndarray[Any, np.dtype[np.float32]]:
        with self.h_in.write() as a:
            a[:] = state
        run = self.graph.replay(self.h_in, self.h_out)
        self.steps += 1
        result = self.h_out.read().copy()  # E: use-after-transfer
        self.h_in, self.h_out = run.wait()
        return result

    def close(self) -> None:
        self.graph.close()
        self.stream.close()


def main() -> None:
    stepper = GraphStepper(16)
    state = np.full(16, 8.0, dtype=np.float32)
    for _ in range(3):
        state = stepper.step(state)
    stepper.close()
    assert float(state[0]) == 1.0, state[0]
    print("graph stepper: steps", stepper.steps, "state", float(state[0]))


if __name__ == "__main__":
    main()
