# A helper with an optional `out=` buffer (see user5_optional_out_ok.py). The bug, kind
# "reading the download destination before wait, through a Consumed optional
# parameter": the caller enqueues the next fetch into its buffer and logs the sum of
# that buffer before taking it back.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def bump(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] += 1.0


def fetch_async(s: nx.Stream[nx.Lent], dev: Dev, out: nx.Consumed[Host] | None = None) -> nx.Transfer[Host]:
    if out is None:
        out = nx.pinned_array(dev.shape, np.float32)
    return s.download(dev, into=out)


def fetch(s: nx.Stream[nx.Lent], dev: Dev, out: nx.Consumed[Host] | None = None) -> Host:
    return fetch_async(s, dev, out).wait()


def run(steps: int = 3) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    s.upload_staged(np.zeros(16, np.float32), to=dev)
    buf = fetch(s, dev)
    sums = [float(buf.read().sum())]
    for _ in range(steps):
        s.launch(bump, 1, 16, dev)
        pending = fetch_async(s, dev, out=buf)
        sums.append(float(buf.read().sum()))  # E: use-after-transfer "buf"
        buf = pending.wait()
    s.close()
    return sums


if __name__ == "__main__":
    assert run() == [0.0, 16.0, 32.0, 48.0], run()
    print("optional out ok")
