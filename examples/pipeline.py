"""Stream a large pinned array through the GPU in chunks with nx.Pipeline.

Each chunk is uploaded, transformed by a kernel and downloaded on one of the
pipeline's slot streams; uploads overlap downloads and kernels. The source and the
destination belong to the run until `run.wait()` gives them back, so no chunk can be
touched while a copy uses it.

    python examples/pipeline.py [total_elements] [chunk_elements]
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i] + 1.0


def step(
    s: nx.Stream[nx.Lent],
    chunk_in: nx.DeviceArray[nx.Owned, np.float32],
    chunk_out: nx.DeviceArray[nx.Owned, np.float32],
) -> None:
    s.launch(affine, (chunk_in.size + 255) // 256, 256, chunk_in, chunk_out)


def main(total: int = 1 << 16, chunk: int = 1 << 12) -> float:
    src = nx.pinned_array(total, np.float32)
    with src.write() as a:
        a[:] = np.arange(total, dtype=np.float32)
    dst = nx.pinned_array(total, np.float32)
    pipe = nx.Pipeline(chunk, np.float32, slots=3)
    t0 = time.perf_counter()
    run = pipe.map(src, into=dst, step=step)  # src and dst move into the run
    src, dst = run.wait()  # ...and come back when the last chunk is home
    elapsed = time.perf_counter() - t0
    expected = 2.0 * src.read() + 1.0
    assert np.array_equal(dst.read(), expected), "pipeline result is wrong"
    pipe.close()
    return elapsed


if __name__ == "__main__":
    args = [int(x) for x in sys.argv[1:3]]
    seconds = main(*args)
    print(f"pipeline: right, {seconds * 1e3:.1f} ms")
