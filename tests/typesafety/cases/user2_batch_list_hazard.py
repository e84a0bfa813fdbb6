# XFAIL: miss, line 32: the comprehension [s.upload(h, to=d) for h, d in zip(hosts, devs)] moves every element of hosts; the next comprehension reads them (h.read() for h in hosts) before any hosts[i] = t.wait(); elements moved through a comprehension's zip() loop variable are not tracked.
# A batch of pinned buffers sent all at once: a list comprehension starts one upload per
# buffer, a kernel per batch runs, and the buffers are taken back by index into the same
# list. BUG: the "sent" checksums are taken from the list right after the uploads start,
# before any element has been taken back.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 8


@cuda.jit
def bump(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1.0


def main(batches: int = 3) -> None:
    s = nx.stream()
    hosts = [nx.pinned_copy(np.full(N, float(b), dtype=np.float32)) for b in range(batches)]
    devs = [nx.device_array(N, np.float32) for _ in range(batches)]
    print(f"sending {len(hosts)} batches of {hosts[0].size}")
    ups = [s.upload(h, to=d) for h, d in zip(hosts, devs, strict=True)]
    sent = [float(h.read().sum()) for h in hosts]  # E: use-after-transfer
    for d in devs:
        s.launch(bump, 1, N, d)
    for i, t in enumerate(ups):
        hosts[i] = t.wait()
    outs = [s.download(d, into=h).wait() for d, h in zip(devs, hosts, strict=True)]
    got = [float(o.read().sum()) for o in outs]
    s.close()
    assert sent == [8.0 * b for b in range(batches)], sent
    assert got == [8.0 * (b + 1) for b in range(batches)], got


main()
