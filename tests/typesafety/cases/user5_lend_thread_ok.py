# Handing a result to a writer thread: each downloaded result is lent read-only to a
# thread that checksums it (standing in for a file or socket writer); the thread is
# joined inside the lend block, so the view is used only while it is lent, and the next
# download waits for the block to end.
# RUN: ok
from __future__ import annotations

import threading
import zlib
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
LentHost = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def ramp(a: Any, k: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = k * i


def checksum_into(view: LentHost, out: list[int]) -> None:
    out.append(zlib.crc32(view.read().tobytes()))


def run(steps: int = 3, n: int = 32) -> list[int]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host: Host = nx.pinned_array(n, np.float32)
    sums: list[int] = []
    for k in range(steps):
        s.launch(ramp, 1, 32, dev, float(k + 1))
        host = s.download(dev, into=host).wait()
        with host.lend() as view:
            writer = threading.Thread(target=checksum_into, args=(view, sums))
            writer.start()
            writer.join()
    s.close()
    return sums


if __name__ == "__main__":
    sums = run()
    want = [zlib.crc32((np.arange(32, dtype=np.float32) * (k + 1)).tobytes()) for k in range(3)]
    assert sums == want
    print("lend thread ok")
