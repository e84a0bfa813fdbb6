# A captured step replayed in a loop (a CUDA-graph training/inference loop): one step
# (upload -> kernel -> download) is captured once, then each iteration fills the input,
# replays the graph and reads the output. Correct: the input is refilled after
# run.wait() gives both buffers back.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 16


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i] + 1.0


def main(iters: int = 4) -> None:
    s = nx.stream()
    host_in = nx.pinned_array(N, np.float32)
    host_out = nx.pinned_array(N, np.float32)
    d_in = nx.device_array(N, np.float32)
    d_out = nx.device_array(N, np.float32)
    s.launch(affine, 1, N, d_in, d_out)  # compile once before capturing
    with nx.capture(s) as cap:
        up = s.upload(host_in, to=d_in)
        s.launch(affine, 1, N, d_in, d_out)
        down = s.download(d_out, into=host_out)
    host_in, host_out = up.wait(), down.wait()  # captured: complete at once
    graph = cap.graph

    firsts: list[float] = []
    for it in range(iters):
        with host_in.write() as a:
            a[:] = float(it)
        run = graph.replay(host_in, host_out)
        host_in, host_out = run.wait()
        firsts.append(float(host_out.read()[0]))
    graph.close()
    s.close()
    assert firsts == [2.0 * it + 1.0 for it in range(iters)], firsts


main()
