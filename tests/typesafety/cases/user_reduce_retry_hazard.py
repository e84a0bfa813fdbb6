# A sum-of-squares reduction over one pinned array split into parts, one stream per
# part. A stream may have been closed by an earlier shutdown: the helper that uploads a
# part catches nx.StreamClosedError, opens a new stream and retries with the same part
# (a refused call moves nothing). The parts are squared in place on the device, joined,
# and the result comes back in one download.
# Bug: the total is read from the download's destination before down.wait().
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def square(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * a[i]


def upload_part(
    streams: list[nx.Stream[nx.Owned]], i: int, h: nx.Consumed[Host], d: Dev, log: list[str]
) -> nx.Transfer[Host]:
    try:
        return streams[i].upload(h, to=d)
    except nx.StreamClosedError:
        log.append(f"stream {i} was closed; retrying part of {h.shape[0]} rows")
        streams[i] = nx.stream()
        return streams[i].upload(h, to=d)


def sum_of_squares(host: Host, streams: list[nx.Stream[nx.Owned]], log: list[str]) -> tuple[Host, float]:
    n = host.shape[0]
    dev = nx.device_array(n, np.float32)
    hp = nx.split(host, len(streams))
    dp = nx.split(dev, len(streams))
    ups: list[nx.Transfer[Host]] = []
    for i, (h, d) in enumerate(zip(hp, dp)):
        ups.append(upload_part(streams, i, h, d, log))
        streams[i].launch(square, 1, d.size, d)
    hp = [t.wait() for t in ups]
    host = nx.join(hp)
    dev = nx.join(dp)
    out = nx.pinned_array(n, np.float32)
    down = streams[0].download(dev, into=out)
    total = float(out.read().sum(dtype=np.float64))  # E: use-after-transfer "out" "out = down.wait()"
    out = down.wait()
    out.free()
    dev.free()
    return host, total


def main(n: int = 24, k: int = 3) -> float:
    streams = [nx.stream() for _ in range(k)]
    streams[1].close()
    host = nx.pinned_copy(np.arange(n, dtype=np.float32))
    log: list[str] = []
    host, total = sum_of_squares(host, streams, log)
    for s in streams:
        s.close()
    assert total == float((np.arange(n, dtype=np.float64) ** 2).sum()), total
    assert len(log) == 1, log
    assert float(host.read()[-1]) == n - 1
    return total


main()
