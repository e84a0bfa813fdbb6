# Double buffering on a copy stream and a compute stream (strict: every cross-stream
# XFAIL: miss: outs[k].read() at line 62 in the drain loop `for k in range(2)`, after the first loop moved outs[k] (k = i % 2) into downloads stored in downs[k], is not reported
# dependency is stated with wait_for, the numbaxfer form of event.record / stream.wait).
# Slot k = i % 2 holds one pinned input, one pinned output and their device buffers.
# The bug: the final drain copies each slot's output out before waiting its download.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def square(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] * src[i]


def run(chunks: int = 5, chunk: int = 64) -> NDArray[np.float32]:
    data = np.arange(chunks * chunk, dtype=np.float32)
    copy_s = nx.stream(strict=True)
    compute_s = nx.stream(strict=True)
    ins = [nx.pinned_array(chunk, np.float32) for _ in range(2)]
    outs = [nx.pinned_array(chunk, np.float32) for _ in range(2)]
    d_in = [nx.device_array(chunk, np.float32) for _ in range(2)]
    d_out = [nx.device_array(chunk, np.float32) for _ in range(2)]
    downs: list[nx.Transfer[Host] | None] = [None, None]
    owner = [-1, -1]
    result = np.zeros_like(data)

    for i in range(chunks):
        k = i % 2
        pending = downs[k]
        if pending is not None:  # chunk i-2 used this slot: take its output back
            outs[k] = pending.wait()
            downs[k] = None
            j = owner[k]
            result[j * chunk : (j + 1) * chunk] = outs[k].read()
        with ins[k].write() as a:
            a[:] = data[i * chunk : (i + 1) * chunk]
        compute_s.wait_for(copy_s)  # chunk i-2's download has read d_out[k]
        copy_s.wait_for(compute_s)  # ... and its kernel has read d_in[k]
        up = copy_s.upload(ins[k], to=d_in[k])
        compute_s.wait_for(copy_s)  # the kernel after the upload
        compute_s.launch(square, 1, 32, d_in[k], d_out[k])
        copy_s.wait_for(compute_s)  # the download after the kernel
        downs[k] = copy_s.download(d_out[k], into=outs[k])
        owner[k] = i
        ins[k] = up.wait()

    for k in range(2):
        last = downs[k]
        if last is not None:
            j = owner[k]
            result[j * chunk : (j + 1) * chunk] = outs[k].read()  # E: use-after-transfer "outs[k]"
            outs[k] = last.wait()
    copy_s.close()
    compute_s.close()
    assert np.array_equal(result, data * data)
    return result


if __name__ == "__main__":
    print(run().sum())
