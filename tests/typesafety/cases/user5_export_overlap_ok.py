# Exporting results while the GPU works on: each step's output is downloaded into a
# pinned buffer, lent read-only to an exporter (it serialises the values), and the next
# step's download into the same buffer starts after the lend block has ended.
# RUN: ok
from __future__ import annotations

import io
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
LentHost = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def advance(a: Any, t: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] + t


class Exporter:
    def __init__(self) -> None:
        self.sink = io.BytesIO()
        self.records = 0

    def write(self, view: LentHost) -> None:
        self.sink.write(view.read().tobytes())
        self.records += 1


def run(steps: int = 4, n: int = 32) -> Exporter:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=dev)
    out: Host = nx.pinned_array(n, np.float32)
    exporter = Exporter()
    s.launch(advance, 1, 32, dev, 1.0)
    down = s.download(dev, into=out)
    for step in range(1, steps):
        out = down.wait()
        with out.lend() as view:
            exporter.write(view)
        s.launch(advance, 1, 32, dev, float(step + 1))
        down = s.download(dev, into=out)
    out = down.wait()
    with out.lend() as view:
        exporter.write(view)
    s.close()
    return exporter


if __name__ == "__main__":
    ex = run()
    vals = np.frombuffer(ex.sink.getvalue(), dtype=np.float32).reshape(4, 32)
    assert ex.records == 4 and np.array_equal(vals[:, 0], [1.0, 3.0, 6.0, 10.0]), vals[:, 0]
    print("export ok")
