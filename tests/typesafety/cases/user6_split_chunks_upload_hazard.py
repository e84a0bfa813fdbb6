# RUN: raises UseAfterTransferError
# Planted bug: after splitting, the code normalises the whole array through the original
# handle (which moved into the split) instead of after the join.
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


def scatter(
    host: nx.Consumed[Host], streams: list[nx.Stream[nx.Owned]], parts: int
) -> tuple[Host, list[Dev]]:
    pieces = nx.split(host, parts)
    print(f"scattering total {host.read().sum()}")  # E: use-after-transfer
    devs = [nx.device_array(p.shape, np.float32) for p in pieces]
    ups = [streams[i % len(streams)].upload(p, to=d) for i, (p, d) in enumerate(zip(pieces, devs))]
    for i, d in enumerate(devs):
        streams[i % len(streams)].launch(scale, 1, 64, d, float(i + 1))
    back = [u.wait() for u in ups]
    whole = nx.join(back)
    with whole.write() as a:
        a[:] = 0.0
    return whole, devs


def main(n: int = 256) -> list[float]:
    streams = [nx.stream(), nx.stream()]
    host = nx.pinned_copy(np.ones(n, dtype=np.float32))
    host, devs = scatter(host, streams, 4)
    firsts: list[float] = []
    for i, d in enumerate(devs):
        out = nx.pinned_array(d.shape, np.float32)
        out = streams[i % 2].download(d, into=out).wait()
        firsts.append(float(out.read()[0]))
    assert float(host.read().sum()) == 0.0
    for st in streams:
        st.close()
    assert firsts == [1.0, 2.0, 3.0, 4.0], firsts
    return firsts


if __name__ == "__main__":
    main()
