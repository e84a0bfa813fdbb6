# Helper functions the way a port from numba.cuda grows them: fill() writes a buffer it
# borrows, stage() takes ownership (nx.Consumed) and returns the upload, finish() takes
# a transfer and returns the buffer, and roundtrip() chains them for each batch.
# Bugs: the first staging call's transfer is dropped (the caller forgot that stage()
# returns the upload), and the buffer it consumed is then filled again.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def cube(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * a[i] * a[i]


def fill(buf: Host, value: float) -> None:
    with buf.write() as a:
        a[:] = value


def stage(buf: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: Dev) -> nx.Transfer[Host]:
    s.launch(cube, 1, dev.size, dev)  # the previous batch's data, stream-ordered
    return s.upload(buf, to=dev)


def finish(t: nx.Consumed[nx.Transfer[Host]]) -> Host:
    return t.wait()


def roundtrip(buf: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: Dev) -> Host:
    up = stage(buf, s, dev)
    s.launch(cube, 1, dev.size, dev)
    return finish(s.download(dev, into=up))


def main(n: int = 8) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    buf = nx.pinned_array(n, np.float32)
    fill(buf, 0.0)
    stage(buf, s, dev)  # E: unfinished-transfer
    sums = []
    for v in (1.0, 2.0, 3.0):
        fill(buf, v)  # E: use-after-transfer "buf" "stage()"
        buf = roundtrip(buf, s, dev)  # E: use-after-transfer "buf"
        sums.append(float(buf.read().sum()))
    s.close()
    assert sums == [n * v**3 for v in (1.0, 2.0, 3.0)], sums
    return sums


main()
