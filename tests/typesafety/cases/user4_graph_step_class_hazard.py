# A captured step in a class: __init__ captures upload -> kernel -> download once;
# launch() replays the graph with the class's host buffers (they move into the run),
# result() takes them back and returns the output. Callers alternate launch/result.
# The bug: a debug print of the output buffer between launch() and result().
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 16


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i] + 1.0


class GraphedStep:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.d_in = nx.device_array(N, np.float32)
        self.d_out = nx.device_array(N, np.float32)
        hin, hout = nx.pinned_array(N, np.float32), nx.pinned_array(N, np.float32)
        with nx.capture(self.s) as cap:
            up = self.s.upload(hin, to=self.d_in)
            self.s.launch(affine, 1, N, self.d_in, self.d_out)
            down = self.s.download(self.d_out, into=hout)
        self.hin: Host = up.wait()
        self.hout: Host = down.wait()
        self.graph = cap.graph
        self.run: nx.GraphRun | None = None

    def launch(self, value: float) -> None:
        with self.hin.write() as a:
            a[:] = value
        self.run = self.graph.replay(self.hin, self.hout)

    def result(self) -> float:
        assert self.run is not None
        self.hin, self.hout = self.run.wait()
        self.run = None
        return float(self.hout.read()[0])

    def close(self) -> None:
        self.graph.close()
        self.s.close()


def main() -> None:
    step = GraphedStep()
    outs = []
    for v in (0.0, 1.0, 2.5):
        step.launch(v)
        print("before result:", step.hout.read()[0])  # E: use-after-transfer "step.hout"
        outs.append(step.result())
    assert outs == [1.0, 3.0, 6.0], outs
    print(outs)
    step.close()


main()
