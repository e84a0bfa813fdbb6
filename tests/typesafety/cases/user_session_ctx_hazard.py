# A context-manager class that owns a stream, a pinned input buffer and a device
# buffer: submit() uploads and scales, result() downloads, and __exit__ takes back any
# upload still pending before freeing the buffers and closing the stream.
# Bug: __exit__ frees the pinned buffer without taking back the upload that submit()
# may have left pending.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from types import TracebackType
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor


class GpuSession:
    def __init__(self, n: int) -> None:
        self.n = n
        self.s = nx.stream()
        self.host = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def __enter__(self) -> GpuSession:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.host.free()  # E: use-after-transfer "host" "submit()"
        self.dev.free()
        self.s.close()

    def submit(self, values: NDArray[np.float32], factor: float) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
        with self.host.write() as a:
            a[:] = values
        self.pending = self.s.upload(self.host, to=self.dev)
        self.s.launch(scale, 1, self.n, self.dev, factor)

    def result(self) -> NDArray[np.float32]:
        out = nx.pinned_array(self.n, np.float32)
        out = self.s.download(self.dev, into=out).wait()
        values: NDArray[np.float32] = out.read().copy()
        out.free()
        return values


def main(n: int = 16) -> float:
    with GpuSession(n) as sess:
        sess.submit(np.ones(n, dtype=np.float32), 3.0)
        first = sess.result()
        sess.submit(np.full(n, 2.0, dtype=np.float32), 0.5)
    assert float(first.sum()) == 3.0 * n
    try:
        with GpuSession(n) as sess:
            sess.submit(np.ones(n, dtype=np.float32), 2.0)
            raise KeyError("caller failed")
    except KeyError:
        pass
    return float(first.sum())


main()
