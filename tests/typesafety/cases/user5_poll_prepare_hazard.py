# Overlapping host preprocessing with the copy (see user5_poll_prepare_ok.py). The bug,
# kind "a moved buffer passed to a helper that writes it": the swap is done before the
# preparation instead of after the wait, so the next frame is prepared into the buffer
# the running upload reads.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def accumulate(x: Any, acc: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc[i] += x[i]


def prepare(buf: Host, frame: NDArray[np.float32]) -> None:
    """Write the normalised frame into buf."""
    with buf.write() as a:
        a[:] = (frame - frame.min()) / max(float(frame.max() - frame.min()), 1e-6)


def run(frames: list[NDArray[np.float32]]) -> NDArray[np.float32]:
    n = frames[0].size
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    acc = nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=acc)
    cur: Host = nx.pinned_array(n, np.float32)
    nxt: Host = nx.pinned_array(n, np.float32)
    prepare(cur, frames[0])
    polls = 0
    for k in range(len(frames)):
        up = s.upload(cur, to=dev)
        s.launch(accumulate, 1, 32, dev, acc)
        cur, nxt = nxt, cur
        if k + 1 < len(frames):
            prepare(nxt, frames[k + 1])  # E: use-after-transfer "nxt"
        while not up.done():
            polls += 1
        cur = up.wait()
    out = nx.pinned_array(n, np.float32)
    out = s.download(acc, into=out).wait()
    res: NDArray[np.float32] = out.read().copy()
    s.close()
    return res


if __name__ == "__main__":
    frames = [np.arange(32, dtype=np.float32) * (k + 1) for k in range(3)]
    res = run(frames)
    assert np.allclose(res, 3 * np.arange(32, dtype=np.float32) / 31), res
    print("poll/prepare ok")
