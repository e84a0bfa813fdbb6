# A round trip written to be exception safe, like a port of careful numba code: the
# sizes are checked before anything moves, the upload is started, the rest of the work
# runs in a try, the handler takes the input buffer back before logging it and
# re-raising, and the else clause completes both transfers. The caller retries a
# request refused for a wrong output size (refused before the move: host is still its).
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def incr(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1.0


def roundtrip(
    host: nx.Consumed[Host], out: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: Dev, log: list[str]
) -> tuple[Host, Host]:
    if out.shape != dev.shape:
        raise ValueError(f"output shape {out.shape} != device shape {dev.shape}")
    up = s.upload(host, to=dev)
    try:
        s.launch(incr, 1, dev.size, dev)
        down = s.download(dev, into=out)
    except BaseException as e:
        host = up.wait()
        log.append(f"{type(e).__name__} after uploading {host.read()[:2].tolist()}")
        raise
    else:
        host = up.wait()
        out = down.wait()
    return host, out


def main(n: int = 8) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_copy(np.ones(n, np.float32))
    log: list[str] = []
    out = nx.pinned_array(n + 1, np.float32)
    try:
        host, out = roundtrip(host, out, s, dev, log)
    except ValueError:
        out = nx.pinned_array(n, np.float32)
        host, out = roundtrip(host, out, s, dev, log)
    total = float(out.read().sum())
    s.close()
    assert total == 2.0 * n and not log, (total, log)
    return total


main()
