# A bandwidth probe: pinned buffers of several sizes are uploaded all at once on one
# stream; the log line for each upload uses only the buffer's metadata (nbytes, shape),
# which stays readable while a copy owns the buffer; the buffers are taken back with
# list(map(...)), an interrupted wait() is retried (it leaves the transfer pending), and
# the data is verified after a round trip.
# RUN: ok
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
    lines = [f"upload {b.nbytes:>6d} B shape={b.shape}" for b in bufs]
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
