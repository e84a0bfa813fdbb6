# RUN: raises UseAfterTransferError
# Planted bug: the slot is refilled before the upload of two frames ago is waited, so bufs[k] is still moved.
"""Double-buffered uploads on a strict copy stream, kernels on a strict compute stream."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]
DevF = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["src"], writes=["acc"])
@cuda.jit
def add_into(acc: Any, src: Any) -> None:
    for i in range(cuda.grid(1), acc.size, cuda.gridsize(1)):
        acc[i] += src[i]


def stream_sum(frames: NDArray[np.float32]) -> NDArray[np.float32]:
    count, n = frames.shape
    copy_s = nx.stream(strict=True)
    compute_s = nx.stream(strict=True)
    bufs: list[HostF] = [nx.pinned_array(n, np.float32) for _ in range(2)]
    d_in: list[DevF] = [nx.device_array(n, np.float32) for _ in range(2)]
    acc = nx.device_array(n, np.float32)
    zero = compute_s.upload(nx.pinned_copy(np.zeros(n, np.float32)), to=acc)
    inflight: list[nx.Transfer[HostF] | None] = [None, None]
    for i, frame in enumerate(frames):
        k = i % 2
        pending = inflight[k]
        with bufs[k].write() as v:  # E: use-after-transfer
            v[:] = frame
        if pending is not None:
            bufs[k] = pending.wait()
            copy_s.wait_for(compute_s)  # the kernel that read d_in[k] must be done first
        inflight[k] = copy_s.upload(bufs[k], to=d_in[k])
        compute_s.wait_for(copy_s)
        add_into[1, 64, compute_s](acc, d_in[k])
    for k, pending in enumerate(inflight):
        if pending is not None:
            bufs[k] = pending.wait()
    copy_s.wait_for(compute_s)
    out = copy_s.download(acc, into=zero.wait()).wait()
    result: NDArray[np.float32] = out.read().copy()
    copy_s.close()
    compute_s.close()
    return result


def main(count: int = 5, n: int = 128) -> NDArray[np.float32]:
    frames = np.arange(count * n, dtype=np.float32).reshape(count, n)
    result = stream_sum(frames)
    assert np.array_equal(result, frames.sum(axis=0)), "double buffer: wrong sum"
    return result


if __name__ == "__main__":
    main()
