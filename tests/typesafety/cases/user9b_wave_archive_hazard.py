# (no RUN line: Archive.keep() stores the handle, nothing moves it, and export() is off by default; the archived frames are silently overwritten)
# Planted bug: after handing the frame to the archive (a Consumed parameter) the loop keeps downloading into the same buffer instead of allocating a new one.
"""1-D wave equation (leapfrog) with periodic snapshots: every frame is downloaded for
a running energy monitor, and every fifth frame is handed to an archive, which keeps
the buffer it is given."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 128
C2 = 0.25
F64 = np.float64
Host = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def leapfrog(prev: Any, cur: Any, nxt: Any, c2: float) -> None:
    i = cuda.grid(1)
    n = cur.size
    if 0 < i < n - 1:
        nxt[i] = 2.0 * cur[i] - prev[i] + c2 * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1])
    elif i == 0 or i == n - 1:
        nxt[i] = 0.0


class Archive:
    def __init__(self, path: str | None = None) -> None:
        self.path = path
        self.frames: list[tuple[int, Host]] = []
        self.peaks: list[tuple[int, float]] = []

    def keep(self, step: int, frame: nx.Consumed[Host]) -> None:
        self.peaks.append((step, float(frame.read().max())))
        self.frames.append((step, frame))

    def export(self) -> None:
        if self.path is not None:
            np.savez(self.path, *[f.read() for _k, f in self.frames])


def main(steps: int = 25, out: str | None = None) -> None:
    x = np.linspace(0.0, 1.0, N)
    u0 = np.exp(-200.0 * (x - 0.3) ** 2)
    s = nx.stream()
    bufs = [nx.device_array(N, F64) for _ in range(3)]
    init = nx.pinned_copy(u0)
    init = s.upload(init, to=bufs[0]).wait()
    init = s.upload(init, to=bufs[1]).wait()
    archive = Archive(out)
    frame = nx.pinned_array(N, F64)
    energy: list[float] = []
    for step in range(1, steps + 1):
        prev, cur, nxt = bufs
        s.launch(leapfrog, 2, 64, prev, cur, nxt, C2)
        bufs = [cur, nxt, prev]
        frame = s.download(nxt, into=frame).wait()  # E: use-after-transfer
        energy.append(float(np.sum(frame.read() ** 2)))
        if step % 5 == 0:
            archive.keep(step, frame)
    archive.export()
    print("archived peaks:", [(k, round(p, 4)) for k, p in archive.peaks])
    print(f"energy drift {abs(energy[-1] - energy[0]) / energy[0]:.3f}")
    s.close()


if __name__ == "__main__":
    main()
