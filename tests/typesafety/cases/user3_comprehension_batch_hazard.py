# Comprehension-style batch code (the PyTorch habit of `[x.cuda(non_blocking=True) for x
# in batch]`): every pinned sample is uploaded in one comprehension, the returned
# buffers are collected in another, and a host-side checksum runs on those.
# The bug: the uploads are waited in a plain loop whose results are dropped, and the
# checksum reads the moved list.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def negate(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = -a[i]


def main(samples: int = 4, n: int = 16) -> None:
    s = nx.stream()
    bufs = [nx.pinned_copy(np.full(n, float(k), np.float32)) for k in range(samples)]
    devs = [nx.device_array(n, np.float32) for _ in range(samples)]
    ups = [s.upload(b, to=d) for b, d in zip(bufs, devs, strict=True)]
    for d in devs:
        s.launch(negate, 1, 32, d)
    for t in ups:
        t.wait()
    checksum = float(np.concatenate([b.read() for b in bufs]).sum())  # E: use-after-transfer "bufs"
    downs = [s.download(d, into=b) for d, b in zip(devs, bufs, strict=True)]  # E: use-after-transfer "bufs"
    outs = [t.wait() for t in downs]
    s.close()
    assert checksum == n * sum(range(samples))
    assert [float(o.read()[0]) for o in outs] == [-float(k) for k in range(samples)]


if __name__ == "__main__":
    main()
