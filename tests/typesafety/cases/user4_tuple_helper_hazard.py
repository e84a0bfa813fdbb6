# RUN: raises UseAfterTransferError
# A helper that starts a round trip and returns (host, transfer) tuples: the fresh
# result buffer the caller will download into, and the upload still in flight. The
# caller unpacks them, chains its own work, and completes both. The bugs: the caller
# copies the result out before the download's wait(), and never waits the upload.
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def square(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * a[i]


def begin(s: nx.Stream[nx.Lent], data: NDArray[np.float32], dev: Dev) -> tuple[Host, nx.Transfer[Host]]:
    src = nx.pinned_copy(data)
    up = s.upload(src, to=dev)
    result = nx.pinned_array(data.shape, np.float32)
    return result, up


def squares(s: nx.Stream[nx.Lent], data: NDArray[np.float32]) -> NDArray[np.float32]:
    dev = nx.device_array(data.shape, np.float32)
    result, up = begin(s, data, dev)  # E: unfinished-transfer "up"
    s.launch(square, 1, data.size, dev)
    down = s.download(dev, into=result)
    out = result.read().copy()  # E: use-after-transfer "result" "result = down.wait()"
    result = down.wait()
    result.free()
    dev.free()
    return out


def main() -> None:
    s = nx.stream()
    got = [squares(s, np.arange(n, dtype=np.float32)) for n in (4, 8, 16)]
    assert all(np.array_equal(g, np.arange(g.size, dtype=np.float32) ** 2) for g in got)
    print("sizes", [g.size for g in got])
    s.close()


main()
