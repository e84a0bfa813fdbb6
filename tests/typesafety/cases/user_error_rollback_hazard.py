# A round trip written to be exception safe, like a port of careful numba code: the
# upload is started, the rest of the work runs in a try, the handler takes the input
# buffer back before logging it and re-raising, and the else clause completes both
# transfers. The caller retries a request refused for a wrong output size.
# Bugs: the handler logs the input before taking it back from the upload; and the
# size check is left to download(), after roundtrip() has moved host into the upload,
# so the caller's retry passes a buffer roundtrip() consumed (its handler took it back
# into its own local, which the caller never sees).
# XFAIL: miss: a call to a user function with an nx.Consumed parameter that raises after moving it (roundtrip() at line 56; its download at line 38 refuses the wrong-size out) is treated as moving nothing, so the retry with the same buffer in `except ValueError:` (line 59) is not reported
# (No RUN header: the runtime raises at the handler's read, line 39, which mypy flags, so the
# agreement test would pass the strict xfail; user_consumed_retry_hazard has the retry bug alone.)
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
    up = s.upload(host, to=dev)
    try:
        s.launch(incr, 1, dev.size, dev)
        down = s.download(dev, into=out)
    except BaseException as e:
        log.append(f"{type(e).__name__} after uploading {host.read()[:2].tolist()}")  # E: use-after-transfer "host"
        host = up.wait()
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
        host, out = roundtrip(host, out, s, dev, log)  # E: use-after-transfer "host" "roundtrip()"
    total = float(out.read().sum())
    s.close()
    assert total == 3.0 * n and len(log) == 1, (total, log)
    return total


main()
