# Handing a result to a writer thread through a lend (see user5_lend_thread_ok.py). The
# XFAIL: miss: the lent view passed to threading.Thread(args=(view, sums)) at line 42, with the thread joined after the lend block has ended (line 45), escapes the block; not reported
# bug, kind "a lent handle escaping (into a thread)": the writer is joined after the
# lend block, to overlap it with the next kernel, so the thread may read the view after
# the block has ended (and while the next download writes the buffer).
# (Simulator: timing-dependent; the thread usually reads before the block ends, and a
# late read raises BorrowError in the thread, not in the program's frames. No RUN header.)
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
            writer = threading.Thread(target=checksum_into, args=(view, sums))  # E: lend-escape "view"
            writer.start()
        s.launch(ramp, 1, 32, dev, float(k + 1))
        writer.join()
    s.close()
    return sums


if __name__ == "__main__":
    sums = run()
    want = [zlib.crc32((np.arange(32, dtype=np.float32) * (k + 1)).tobytes()) for k in range(3)]
    assert sums == want
    print("lend thread ok")
