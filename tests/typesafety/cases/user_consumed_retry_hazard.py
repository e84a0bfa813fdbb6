# A batch submitter: submit() consumes the staging buffer (nx.Consumed), uploads it and
# launches the batch's kernel with a per-batch parameter table; a batch whose table is
# bad raises after the upload, so the buffer is gone with that call. The caller then
# retries the batch with a fresh pinned copy of the data, never with the old buffer.
# Bug: the retry passes the old buffer again, as if the failed submit() had refused it
# before moving it (submit's finally took it back into its own local, then re-raised).
# XFAIL: miss: a call to a user function with an nx.Consumed parameter that raises after it moved the buffer (submit() at line 48; the KeyError comes from params["b"] at line 33, after the upload at line 31) is treated as a refused call that moved nothing, so the retry with the same buffer in `except KeyError:` (line 50) is not reported
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def affine(a: Any, w: float, b: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = w * a[i] + b


def submit(buf: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: Dev, params: dict[str, float]) -> Host:
    up = s.upload(buf, to=dev)
    try:
        s.launch(affine, 1, dev.size, dev, params["w"], params["b"])
    finally:
        buf = up.wait()
    return buf


def run(batches: list[NDArray[np.float32]], params: list[dict[str, float]]) -> list[float]:
    n = len(batches[0])
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    sums: list[float] = []
    for data, p in zip(batches, params):
        buf = nx.pinned_copy(data)
        try:
            buf = submit(buf, s, dev, p)
        except KeyError:
            buf = submit(buf, s, dev, {"w": 1.0, "b": 0.0})  # E: use-after-transfer "buf" "submit()"
        out = s.download(dev, into=out).wait()
        sums.append(float(out.read().sum()))
        buf.free()
    s.close()
    return sums


def main(n: int = 8) -> list[float]:
    batches = [np.ones(n, np.float32), np.full(n, 2.0, np.float32)]
    got = run(batches, [{"w": 3.0, "b": 1.0}, {"w": 2.0}])
    assert got == [4.0 * n, 2.0 * n], got
    return got


main()
