# A two-stage pipeline on two streams: stage 1 uploads a frame, denoises it and downloads
# the result into the same pinned buffer (a chained download takes the buffer over from
# the upload, no host wait between); stage 2 takes stage 1's output buffer as its input,
# uploads it to its own device arrays, scales it and chains its download the same way.
# The intermediate is logged once stage 1 has given the buffer back.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def denoise(x: Any, y: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        lo = max(i - 1, 0)
        hi = min(i + 1, x.size - 1)
        y[i] = (x[lo] + x[i] + x[hi]) / 3.0


@cuda.jit
def gain(x: Any, y: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        y[i] = 4.0 * x[i]


def stage1(s: nx.Stream[nx.Lent], raw: nx.Consumed[Host], d_in: Dev, d_out: Dev) -> nx.Transfer[Host]:
    up = s.upload(raw, to=d_in)
    s.launch(denoise, 1, 32, d_in, d_out)
    return s.download(d_out, into=up)


def stage2(s: nx.Stream[nx.Lent], mid: nx.Consumed[Host], d_in: Dev, d_out: Dev) -> nx.Transfer[Host]:
    up = s.upload(mid, to=d_in)
    s.launch(gain, 1, 32, d_in, d_out)
    return s.download(d_out, into=up)


def run(frames: list[NDArray[np.float32]]) -> tuple[list[NDArray[np.float32]], list[float]]:
    n = frames[0].size
    s1, s2 = nx.stream(), nx.stream()
    a_in, a_out = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    b_in, b_out = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    buf: Host = nx.pinned_array(n, np.float32)
    results: list[NDArray[np.float32]] = []
    log: list[float] = []
    for frame in frames:
        with buf.write() as a:
            a[:] = frame
        t1 = stage1(s1, buf, a_in, a_out)
        mid = t1.wait()
        log.append(float(mid.read().mean()))
        t2 = stage2(s2, mid, b_in, b_out)
        buf = t2.wait()
        results.append(buf.read().copy())
    s1.close()
    s2.close()
    return results, log


if __name__ == "__main__":
    frames = [np.arange(64, dtype=np.float32) * (k + 1) for k in range(3)]
    results, log = run(frames)
    for f, r in zip(frames, results):
        pad = np.concatenate([f[:1], f, f[-1:]])
        want = 4.0 * (pad[:-2] + pad[1:-1] + pad[2:]) / 3.0
        assert np.allclose(r, want, rtol=1e-5), float(np.abs(r - want).max())
    assert len(log) == 3
    print("two-stage ok")
