# RUN: raises UseAfterTransferError
# XFAIL: miss (line 62): the DOWNLOADING phase polls self.t.done() and moves to DONE without rebinding self.buf from self.t.wait(); the DONE phase, in a later call of the method, reads self.buf: an attribute moved in one call and read in a later call of the same method, decided by a state attribute, is not followed
# Planted bug: the DOWNLOADING branch moves to DONE after polling done() without
# rebinding the buffer from wait(), so the DONE phase reads the moved handle.
from __future__ import annotations
import enum
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


class Phase(enum.Enum):
    IDLE = enum.auto()
    UPLOADING = enum.auto()
    COMPUTING = enum.auto()
    DOWNLOADING = enum.auto()
    DONE = enum.auto()


class Job:
    def __init__(self, s: nx.Stream[nx.Lent], n: int, value: float) -> None:
        self.s = s
        self.buf = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)
        self.value = value
        self.phase = Phase.IDLE
        self.t: nx.Transfer[Host] | None = None
        self.result = 0.0

    def advance(self) -> None:
        if self.phase is Phase.IDLE:
            with self.buf.write() as a:
                a[:] = self.value
            self.t = self.s.upload(self.buf, to=self.dev)
            self.phase = Phase.UPLOADING
        elif self.phase is Phase.UPLOADING and self.t is not None and self.t.done():
            self.buf = self.t.wait()
            self.s.launch(scale, 1, 64, self.dev, 4.0)
            self.phase = Phase.COMPUTING
        elif self.phase is Phase.COMPUTING:
            self.t = self.s.download(self.dev, into=self.buf)
            self.phase = Phase.DOWNLOADING
        elif self.phase is Phase.DOWNLOADING and self.t is not None and self.t.done():
            self.t.wait()
            self.t = None
            self.phase = Phase.DONE
        elif self.phase is Phase.DONE:
            self.result = float(self.buf.read()[0])  # E: use-after-transfer


def main(n: int = 64) -> list[float]:
    s = nx.stream()
    jobs = [Job(s, n, float(k)) for k in range(3)]
    while any(j.phase is not Phase.DONE for j in jobs):
        for j in jobs:
            j.advance()
    for j in jobs:
        j.advance()
    s.close()
    results = [j.result for j in jobs]
    assert results == [0.0, 4.0, 8.0], results
    return results


if __name__ == "__main__":
    main()
