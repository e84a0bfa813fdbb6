# Double buffering across a copy stream and a compute stream: while the compute stream
# works on chunk k in one device buffer, the copy stream uploads chunk k+1 into the
# other; the compute stream waits for the copy stream on the device (wait_for), and
# the staged spare buffer is taken back at the end of the step, then the roles swap.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def twice(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i]


def fill(buf: Host, data: NDArray[np.float32], k: int, n: int) -> None:
    with buf.write() as a:
        a[:] = data[k * n : (k + 1) * n]


def process(data: NDArray[np.float32], n: int) -> list[float]:
    chunks = len(data) // n
    s_copy, s_comp = nx.stream(), nx.stream()
    host, spare = nx.pinned_array(n, np.float32), nx.pinned_array(n, np.float32)
    dev, dev_spare = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    d_out = nx.device_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    fill(host, data, 0, n)
    host = s_copy.upload(host, to=dev).wait()
    totals: list[float] = []
    for k in range(chunks):
        s_comp.wait_for(s_copy)
        up: nx.Transfer[Host] | None = None
        if k + 1 < chunks:
            fill(spare, data, k + 1, n)
            up = s_copy.upload(spare, to=dev_spare)
        s_comp.launch(twice, 1, n, dev, d_out)
        down = s_comp.download(d_out, into=out)
        out = down.wait()
        totals.append(float(out.read().sum()))
        if up is not None:
            spare = up.wait()
        host, spare = spare, host
        dev, dev_spare = dev_spare, dev
    s_copy.close()
    s_comp.close()
    return totals


def main(n: int = 16, chunks: int = 4) -> list[float]:
    data = np.arange(n * chunks, dtype=np.float32)
    totals = process(data, n)
    expected = [float(2.0 * data[k * n : (k + 1) * n].sum()) for k in range(chunks)]
    assert totals == expected, (totals, expected)
    return totals


main()
