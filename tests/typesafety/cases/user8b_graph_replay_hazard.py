# RUN: raises UseAfterTransferError
# Planted bug: the input slot is scrubbed right after graph.replay(), while the replay still owns host_in.
"""Capture upload -> kernel -> download once, replay it for every batch of a stream of frames."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def gamma(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), dst.size, cuda.gridsize(1)):
        dst[i] = src[i] * src[i]


def frames(count: int, n: int) -> Iterator[NDArray[np.float32]]:
    for k in range(count):
        yield np.full(n, 0.5 + 0.1 * k, dtype=np.float32)


def build_graph(s: nx.Stream[nx.Lent], host_in: HostF, host_out: HostF, n: int) -> tuple[nx.Graph, HostF, HostF]:
    d_in = nx.device_array(n, np.float32)
    d_out = nx.device_array(n, np.float32)
    with nx.capture(s) as cap:
        up = s.upload(host_in, to=d_in)
        gamma[1, 64, s](d_in, d_out)
        down = s.download(d_out, into=host_out)
    host_in, host_out = up.wait(), down.wait()  # nothing ran: they complete at once
    return cap.graph, host_in, host_out


def main(count: int = 4, n: int = 64) -> list[float]:
    owner = nx.stream()
    host_in = nx.pinned_array(n, np.float32)
    host_out = nx.pinned_array(n, np.float32)
    means: list[float] = []
    with owner.lend() as s:
        graph, host_in, host_out = build_graph(s, host_in, host_out, n)
        for frame in frames(count, n):
            with host_in.write() as v:
                v[:] = frame
            run = graph.replay(host_in, host_out)
            with host_in.write() as scrub:  # E: use-after-transfer
                scrub[:] = 0.0
            host_in, host_out = run.wait()
            with host_out.lend() as view:
                means.append(round(float(view.read().mean()), 4))
    graph.close()
    owner.close()
    assert means == [round((0.5 + 0.1 * k) ** 2, 4) for k in range(count)], means
    return means


if __name__ == "__main__":
    main()
