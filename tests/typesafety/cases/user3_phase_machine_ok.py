# An enum-driven state machine (match on the phase), the way an event loop or a game
# RUN: ok
# tick drives GPU work one step per tick: FILL -> UPLOAD -> DOWNLOAD -> FILL ... -> DONE.
# Each transfer is taken back in the phase after the one that started it.
# The phase is a flag: the checker keeps the paths of each phase apart (no report).
from __future__ import annotations

from enum import Enum, auto
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Phase(Enum):
    FILL = auto()
    UPLOAD = auto()
    DOWNLOAD = auto()
    DONE = auto()


@cuda.jit
def cube(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] * src[i] * src[i]


def run(rounds: int = 3, n: int = 32) -> list[float]:
    s = nx.stream()
    host = nx.pinned_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    d_in = nx.device_array(n, np.float32)
    d_out = nx.device_array(n, np.float32)
    up: nx.Transfer[Host] | None = None
    down: nx.Transfer[Host] | None = None
    results: list[float] = []
    phase = Phase.FILL
    ticks = 0
    while phase is not Phase.DONE:
        ticks += 1
        match phase:
            case Phase.FILL:
                with host.write() as a:
                    a[:] = float(len(results) + 1)
                up = s.upload(host, to=d_in)
                phase = Phase.UPLOAD
            case Phase.UPLOAD:
                assert up is not None
                host = up.wait()
                up = None
                s.launch(cube, 1, 32, d_in, d_out)
                down = s.download(d_out, into=out)
                phase = Phase.DOWNLOAD
            case Phase.DOWNLOAD:
                assert down is not None
                out = down.wait()
                down = None
                results.append(float(out.read()[0]))
                phase = Phase.FILL if len(results) < rounds else Phase.DONE
    s.close()
    assert ticks == 3 * rounds
    return results


if __name__ == "__main__":
    assert run() == [1.0, 8.0, 27.0]
