# One with-statement lending several buffers at once (inputs, mask, weights) to a
# reader that computes a weighted masked mean on the host, then a device reader.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
N = 32


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def copy_scaled(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 0.5 * src[i]


def masked_mean(values: View, mask: View, weights: View) -> float:
    v, m, w = values.read(), mask.read(), weights.read()
    return float((v * m * w).sum() / max(1.0, float((m * w).sum())))


def filled(value: float) -> Host:
    buf = nx.pinned_array(N, np.float32)
    with buf.write() as a:
        a[:] = value
    return buf


def main() -> None:
    s = nx.stream()
    values, mask, weights = filled(4.0), filled(1.0), filled(2.0)
    with values.lend() as vv, mask.lend() as vm, weights.lend() as vw:
        mean = masked_mean(vv, vm, vw)
    dev_in, dev_out = nx.device_array(N, np.float32), nx.device_array(N, np.float32)
    values = s.upload(values, to=dev_in).wait()
    with dev_in.lend() as din:
        copy_scaled[1, N, s](din, dev_out)
    out = s.download(dev_out, into=mask).wait()
    assert mean == 4.0 and float(out.read()[0]) == 2.0
    print("mean", mean, "scaled", out.read()[0], "weights", weights.read()[0])
    s.close()


main()
