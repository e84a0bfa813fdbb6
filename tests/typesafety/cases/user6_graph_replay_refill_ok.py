# RUN: ok
# A captured CUDA graph (upload -> kernel -> download) is replayed per input batch: the
# input is refilled between replays, each replay's run is waited and the buffers rebound.
from __future__ import annotations

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


def build(s: nx.Stream[nx.Owned], h_in: Host, h_out: Host, d: Dev) -> tuple[nx.Graph, Host, Host]:
    with nx.capture(s) as cap:
        up = s.upload(h_in, to=d)
        s.launch(scale, 1, 64, d, 2.0)
        dn = s.download(d, into=h_out)
    h_in, h_out = up.wait(), dn.wait()
    return cap.graph, h_in, h_out


def main(n: int = 64) -> list[float]:
    s = nx.stream()
    d = nx.device_array(n, np.float32)
    h_in = nx.pinned_array(n, np.float32)
    h_out = nx.pinned_array(n, np.float32)
    graph, h_in, h_out = build(s, h_in, h_out, d)
    seen: list[float] = []
    for batch in range(3):
        with h_in.write() as a:
            a[:] = float(batch)
        run = graph.replay(h_in, h_out)
        h_in, h_out = run.wait()
        seen.append(float(h_out.read()[0]))
    graph.close()
    s.close()
    assert seen == [0.0, 2.0, 4.0], seen
    return seen


if __name__ == "__main__":
    main()
