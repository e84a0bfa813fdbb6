# RUN: raises UseAfterTransferError
# XFAIL: miss (line 42): drain() discards batch.upload.wait()'s result and reads batch.host, moved by the upload submit() returned in the NamedTuple; a field moved by the function that built the NamedTuple is not followed through the list of results
# Planted bug: drain() calls batch.upload.wait() but ignores its return value and reads
# batch.host, the handle that was moved (the developer thought wait() just blocks, as
# stream.synchronize() does, and the old handle is usable again).
from __future__ import annotations
from typing import NamedTuple
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


class Batch(NamedTuple):
    step: int
    host: Host
    upload: nx.Transfer[Host]


def submit(s: nx.Stream[nx.Lent], index: int, n: int, dev: Dev) -> Batch:
    host = nx.pinned_copy(np.full(n, float(index), dtype=np.float32))
    return Batch(index, host, s.upload(host, to=dev))


def drain(batches: list[Batch]) -> dict[int, float]:
    sums: dict[int, float] = {}
    for batch in batches:
        batch.upload.wait()
        sums[batch.step] = float(batch.host.read().sum())  # E: use-after-transfer
    return sums


def main(n: int = 64, count: int = 4) -> dict[int, float]:
    s = nx.stream()
    devs = [nx.device_array(n, np.float32) for _ in range(count)]
    batches = [submit(s, i, n, devs[i]) for i in range(count)]
    for dev in devs:
        s.launch(scale, 1, 64, dev, 2.0)
    sums = drain(batches)
    out = nx.pinned_array(n, np.float32)
    out = s.download(devs[-1], into=out).wait()
    s.close()
    assert sums == {i: float(i * n) for i in range(count)}, sums
    assert float(out.read()[0]) == 2.0 * (count - 1)
    return sums


if __name__ == "__main__":
    main()
