# RUN: ok
"""Normalize feature vectors on the GPU with one pinned buffer per round trip."""
from __future__ import annotations

import logging
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

log = logging.getLogger("features")
Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def center(a: Any, mean: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] - mean


def roundtrip(vec: NDArray[np.float32], buf: Host, dev: Dev, s: nx.Stream[nx.Lent]) -> Host:
    with buf.write() as a:
        a[:] = vec
    up = s.upload(buf, to=dev)
    s.launch(center, 1, 64, dev, float(vec.mean()))
    down = s.download(dev, into=up)  # the download takes the buffer over from the upload
    if log.isEnabledFor(logging.DEBUG) or not down.done():
        log.debug("round trip still in flight on %s", s.label)
    return down.wait()


def main() -> None:
    log.setLevel(logging.DEBUG)  # verbose while tuning the transfer sizes
    rng = np.random.default_rng(9)
    s = nx.stream()
    n = 48
    buf: Host = nx.pinned_array(n, np.float32)
    dev: Dev = nx.device_array(n, np.float32)
    means: list[float] = []
    for _ in range(4):
        vec = rng.random(n, dtype=np.float32) * 3.0
        buf = roundtrip(vec, buf, dev, s)
        means.append(float(buf.read().mean()))
    assert all(abs(m) < 1e-5 for m in means), means
    buf.free()
    dev.free()
    s.close()
    print("centered means:", [round(m, 7) for m in means])


if __name__ == "__main__":
    main()
