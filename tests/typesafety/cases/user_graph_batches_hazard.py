# Small batches through a captured CUDA graph: upload -> kernel -> download is
# captured once on two streams, then replayed per batch; each batch is written into
# the input buffer only after the previous replay has given it back.
# Bug: to overlap, the next batch is written into host_in right after replay(), while
# the replay's upload still reads it.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i] + 1.0


def main(n: int = 16, batches: int = 4) -> list[float]:
    s1, s2 = nx.stream(), nx.stream()
    host_in = nx.pinned_array(n, np.float32)
    host_out = nx.pinned_array(n, np.float32)
    d_in = nx.device_array(n, np.float32)
    d_out = nx.device_array(n, np.float32)
    with host_in.write() as a:
        a[:] = 0.0
    s1.launch(affine, 1, n, d_in, d_out)  # compile before capturing
    with nx.capture(s1, s2) as cap:
        up = s1.upload(host_in, to=d_in)
        s2.launch(affine, 1, n, d_in, d_out)
        down = s2.download(d_out, into=host_out)
    host_in, host_out = up.wait(), down.wait()
    graph = cap.graph
    sums: list[float] = []
    for b in range(batches):
        run = graph.replay(host_in, host_out)
        with host_in.write() as a:  # E: use-after-transfer "host_in"
            a[:] = float(b + 1)
        host_in, host_out = run.wait()
        sums.append(float(host_out.read().sum()))
    graph.close()
    s1.close()
    s2.close()
    assert sums == [float((2 * b + 1) * n) for b in range(batches)], sums
    return sums


main()
