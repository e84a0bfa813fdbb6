# The same input sent to two workers (two streams, two device buffers, as for two
# GPUs): the host buffer can be owned by one transfer at a time, so the second upload
# starts after the first gives the buffer back; each worker's result comes home. The
# bug: both uploads are started first, to overlap them, and waited afterwards.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 16


@cuda.jit
def offset(a: Any, k: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += k


def main() -> None:
    streams = [nx.stream(), nx.stream()]
    devs = [nx.device_array(N, np.float32), nx.device_array(N, np.float32)]
    inp = nx.pinned_copy(np.zeros(N, np.float32))
    ups = [s.upload(inp, to=d) for s, d in zip(streams, devs, strict=True)]  # E: use-after-transfer "inp"
    inp = ups[0].wait()
    ups[1].wait()
    for k, (s, d) in enumerate(zip(streams, devs, strict=True)):
        s.launch(offset, 1, N, d, float(k + 1))
    outs = [nx.pinned_array(N, np.float32) for _ in streams]
    downs = [s.download(d, into=o) for s, d, o in zip(streams, devs, outs, strict=True)]
    outs = [t.wait() for t in downs]
    assert [float(o.read()[0]) for o in outs] == [1.0, 2.0]
    print("workers:", [o.read()[0] for o in outs], "input kept:", inp.read()[0])
    for s in streams:
        s.close()


main()
