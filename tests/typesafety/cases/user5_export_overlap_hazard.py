# Exporting results while the GPU works on (see user5_export_overlap_ok.py). The bug,
# kind "the owner moved while it is lent": to overlap the export with the next step,
# the next download into the buffer is enqueued inside the lend block, while the
# exporter still reads the buffer through the lent view.
# RUN: raises BorrowError
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
            s.launch(advance, 1, 32, dev, float(step + 1))
            down = s.download(dev, into=out)  # E: owner-borrowed "out"
            exporter.write(view)
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
