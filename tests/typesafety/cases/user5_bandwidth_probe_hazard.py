# A bandwidth probe (see user5_bandwidth_probe_ok.py). The bug, kind "use after upload
# before wait (a list of buffers)": the log line was extended with a checksum of each
# buffer's contents, computed while the uploads still own the buffers.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import time

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def take_back(t: nx.Transfer[Host]) -> Host:
    try:
        return t.wait()
    except KeyboardInterrupt:  # an interrupted wait() leaves t pending: finish it, re-raise
        t.wait()
        raise


def probe(sizes: list[int]) -> list[str]:
    s = nx.stream()
    bufs: list[Host] = []
    for n in sizes:
        b = nx.pinned_array(n, np.float32)
        with b.write() as a:
            a[:] = np.arange(n, dtype=np.float32)
        bufs.append(b)
    devs = [nx.device_array(b.shape, np.float32) for b in bufs]
    t0 = time.perf_counter()
    ups = [s.upload(b, to=d) for b, d in zip(bufs, devs)]
    lines = [f"upload {b.nbytes:>6d} B sum={b.read().sum()}" for b in bufs]  # E: use-after-transfer
    bufs = list(map(take_back, ups))
    elapsed = time.perf_counter() - t0
    lines.append(f"total {sum(b.nbytes for b in bufs)} B in {elapsed * 1e3:.3f} ms")
    downs = [s.download(d, into=b) for d, b in zip(devs, bufs)]
    bufs = [take_back(t) for t in downs]
    for n, b in zip(sizes, bufs):
        assert np.array_equal(b.read(), np.arange(n, dtype=np.float32)), n
    s.close()
    return lines


if __name__ == "__main__":
    for line in probe([16, 64, 256]):
        print(line)
