# MYPY: >=2.4 on mypy 1.16.1 the type of an element of a list of two partials carries no applied signature (a single partial does), so sender(batch) moves nothing the plugin knows of
# Configuration through functools.partial: a generic send(buf, *, stream, dev, scale)
# that takes the buffer over is specialised per device with partial, and the loop
# calls the specialised senders on fresh batches. The bug: the log line reads the
# batch right after the specialised sender took it.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 16


@cuda.jit
def scale(a: Any, f: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= f


def send(buf: nx.Consumed[Host], *, stream: nx.Stream[nx.Lent], dev: Dev, factor: float) -> nx.Transfer[Host]:
    up = stream.upload(buf, to=dev)
    stream.launch(scale, 1, N, dev, factor)
    return stream.download(dev, into=up)


def main() -> None:
    s = nx.stream()
    senders = [
        functools.partial(send, stream=s, dev=nx.device_array(N, np.float32), factor=2.0),
        functools.partial(send, stream=s, dev=nx.device_array(N, np.float32), factor=-1.0),
    ]
    got = []
    for i, sender in enumerate(senders):
        batch = nx.pinned_copy(np.full(N, float(i + 1), np.float32))
        t = sender(batch)
        print("sent batch of", batch.size, "starting with", batch.read()[0])  # E: use-after-transfer "batch"
        batch = t.wait()
        got.append(float(batch.read()[0]))
    assert got == [2.0, -2.0], got
    print(got)
    s.close()


main()
