# A lookup table in mapped (zero-copy) host memory: kernels read it in place while the
# host prepares the next table; the mapping is waited before the host rewrites it, and
# every launch uses the device view of the live mapping.
# The bug: the mapping is waited between the two passes, and the second pass still
# launches on mapping.device, whose mapping has ended.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@nx.kernel(reads=["lut", "idx"], writes=["out"])
@cuda.jit
def gather(lut: Any, idx: Any, out: Any) -> None:
    for i in range(cuda.grid(1), idx.size, cuda.gridsize(1)):
        out[i] = lut[idx[i]]


def main(entries: int = 16, n: int = 64) -> None:
    s = nx.stream()
    lut = nx.mapped_array(entries, np.float32)
    d_idx = nx.device_array(n, np.int32)
    s.upload_staged((np.arange(n) % entries).astype(np.int32), to=d_idx)
    d_out = nx.device_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    sums = []
    for version in range(3):
        with lut.write() as table:
            table[:] = np.arange(entries, dtype=np.float32) * (version + 1)
        mapping = s.map(lut)  # lut moves: the kernels read it in place
        gather[1, 32, s](mapping.device, d_idx, d_out)
        lut = mapping.wait()  # the kernels are done with the table
        gather[1, 32, s](mapping.device, d_idx, d_out)  # E: use-after-transfer "mapping.device"
        out = s.download(d_out, into=out).wait()
        sums.append(float(out.read().sum()))
    s.close()
    base = float((np.arange(n) % entries).sum())
    assert sums == [base, 2 * base, 3 * base], sums


if __name__ == "__main__":
    main()
