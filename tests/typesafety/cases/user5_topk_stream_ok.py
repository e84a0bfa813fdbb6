# Streaming top-k: a long signal goes to the GPU chunk by chunk; a kernel scores each
# sample, the scores come back into one of two pinned buffers (a ring of two slots), and
# a host-side heap keeps the k best (score, index) pairs. The heap work on chunk c-1
# overlaps the download of chunk c.
# RUN: ok
from __future__ import annotations

import heapq
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def score(x: Any, out: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = x[i] * x[i] - 0.5 * x[i]


def push_topk(heap: list[tuple[float, int]], scores: NDArray[np.float32], base: int, k: int) -> None:
    for j, v in enumerate(scores.tolist()):
        if len(heap) < k:
            heapq.heappush(heap, (v, base + j))
        elif v > heap[0][0]:
            heapq.heapreplace(heap, (v, base + j))


def topk(data: NDArray[np.float32], chunk: int, k: int) -> list[tuple[float, int]]:
    s = nx.stream()
    stage = nx.pinned_array(chunk, np.float32)
    d_in = nx.device_array(chunk, np.float32)
    d_scores = nx.device_array(chunk, np.float32)
    outs: list[Host] = [nx.pinned_array(chunk, np.float32) for _ in range(2)]
    downs: list[nx.Transfer[Host] | None] = [None, None]
    heap: list[tuple[float, int]] = []
    nchunks = data.size // chunk
    for c in range(nchunks):
        with stage.write() as a:
            a[:] = data[c * chunk : (c + 1) * chunk]
        up = s.upload(stage, to=d_in)
        s.launch(score, 1, 32, d_in, d_scores)
        stage = up.wait()
        slot = c % 2
        downs[slot] = s.download(d_scores, into=outs[slot])
        other = 1 - slot
        prev = downs[other]
        if prev is not None:  # chunk c-1: its download was enqueued last iteration
            outs[other] = prev.wait()
            downs[other] = None
            push_topk(heap, outs[other].read(), (c - 1) * chunk, k)
    last = (nchunks - 1) % 2
    final = downs[last]
    if final is not None:
        outs[last] = final.wait()
        downs[last] = None
        push_topk(heap, outs[last].read(), (nchunks - 1) * chunk, k)
    s.close()
    return sorted(heap, reverse=True)


if __name__ == "__main__":
    data = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    got = topk(data, 64, 5)
    sc = data * data - 0.5 * data
    want = sorted(((float(sc[i]), i) for i in np.argsort(sc)[-5:]), reverse=True)
    assert [i for _, i in got] == [i for _, i in want], (got, want)
    print("top-k ok")
