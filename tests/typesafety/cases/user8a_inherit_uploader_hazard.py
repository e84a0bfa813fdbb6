# RUN: raises UseAfterTransferError
# Planted bug: the subclass records the batch mean after calling the base class's _send(), which has moved self.host into the upload.
"""A base uploader that owns a staging buffer and moves it in _send(); a subclass that
normalises each batch before sending and reports statistics."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def running_max(src: Any, best: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        best[i] = max(best[i], src[i])


class BaseUploader:
    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.host: Host = nx.pinned_array(n, np.float32)
        self.dev: Dev = nx.device_array(n, np.float32)
        self.inflight: nx.Transfer[Host] | None = None
        self.sent = 0

    def _settle(self) -> None:
        if self.inflight is not None:
            self.host = self.inflight.wait()
            self.inflight = None

    def _send(self) -> None:
        self.inflight = self.stream.upload(self.host, to=self.dev)
        self.sent += 1

    def close(self) -> None:
        self._settle()
        self.stream.close()


class NormalizingUploader(BaseUploader):
    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.best: Dev = nx.device_array(n, np.float32)
        self.stream.upload_staged(np.full(n, -np.inf, np.float32), to=self.best)
        self.means: list[float] = []

    def push(self, batch: NDArray[np.float32]) -> None:
        self._settle()
        with self.host.write() as a:
            a[:] = (batch - batch.mean()) / (batch.std() + 1e-6)
        self._send()
        self.means.append(float(self.host.read().mean()))  # E: use-after-transfer
        self.stream.launch(running_max, 1, self.dev.size, self.dev, self.best)

    def peak(self) -> float:
        self._settle()
        out = self.stream.download(self.best, into=self.host).wait()
        self.host = out
        return float(out.read().max())


def main() -> None:
    rng = np.random.default_rng(3)
    up = NormalizingUploader(48)
    for _ in range(4):
        up.push(rng.standard_normal(48).astype(np.float32))
    peak = up.peak()
    up.close()
    assert all(abs(m) < 1e-4 for m in up.means), up.means
    print("inheritance: sent", up.sent, "peak", round(peak, 3))


if __name__ == "__main__":
    main()
