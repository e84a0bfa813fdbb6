# An H2D stream and a compute stream: the input is uploaded on `h2d`, the kernel and the
# download run on `compute` (numbaxfer orders them after the upload on the device). The
# upload is still waited: that is what gives the input buffer back for the next batch.
# The bug: the upload is not waited ("the download comes after it anyway"), so the
# transfer is dropped and the next batch writes the buffer it still holds.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def softplus(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = math.log1p(math.exp(src[i]))


def run_batches(batches: list[NDArray[np.float32]]) -> list[float]:
    n = batches[0].size
    h2d, compute = nx.stream(), nx.stream()
    host_in = nx.pinned_array(n, np.float32)
    host_out = nx.pinned_array(n, np.float32)
    d_in = nx.device_array(n, np.float32)
    d_out = nx.device_array(n, np.float32)
    sums: list[float] = []
    for batch in batches:
        with host_in.write() as a:  # E: use-after-transfer "\"host_in\""
            a[:] = batch
        up = h2d.upload(host_in, to=d_in)  # E: unfinished-transfer "\"up\"" "dropped" # E: unfinished-transfer "\"up\"" "unfinished on some path" # E: use-after-transfer "\"host_in\""
        compute.launch(softplus, 1, 32, d_in, d_out)  # waits for the upload on the device
        down = compute.download(d_out, into=host_out)
        host_out = down.wait()  # the upload is ordered before it on the device
        sums.append(float(host_out.read().sum()))
    h2d.close()  # E: unfinished-transfer "is closed"
    compute.close()
    return sums


def main() -> None:
    batches = [np.full(16, float(k), np.float32) for k in range(3)]
    sums = run_batches(batches)
    expected = [16 * float(np.log1p(np.exp(k))) for k in range(3)]
    assert np.allclose(sums, expected, rtol=1e-5), (sums, expected)


if __name__ == "__main__":
    main()
