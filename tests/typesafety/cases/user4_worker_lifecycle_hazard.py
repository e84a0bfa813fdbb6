# A worker class with a start()/submit()/drain()/close() lifecycle: submit() stages a
# batch in the worker's one pinned buffer and uploads it; drain() takes it back. The
# bug: the caller submits two batches back to back, so the second submit() writes the
# staging buffer the first upload still owns.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 32


class UploadWorker:
    def __init__(self, n: int) -> None:
        self.n = n
        self.submitted = 0

    def start(self) -> None:
        self.s = nx.stream()
        self.staging: Host = nx.pinned_array(self.n, np.float32)
        self.dev = nx.device_array(self.n, np.float32)
        self.inflight: nx.Transfer[Host] | None = None

    def submit(self, batch: NDArray[np.float32]) -> None:
        with self.staging.write() as a:
            a[:] = batch
        self.inflight = self.s.upload(self.staging, to=self.dev)
        self.submitted += 1

    def drain(self) -> None:
        if self.inflight is not None:
            self.staging = self.inflight.wait()
            self.inflight = None

    def close(self) -> None:
        self.drain()
        self.staging.free()
        self.dev.free()
        self.s.close()


def main() -> None:
    w = UploadWorker(N)
    w.start()
    for i in range(0, 4, 2):
        w.submit(np.full(N, float(i), np.float32))
        w.submit(np.full(N, float(i + 1), np.float32))  # E: use-after-transfer "staging"
        w.drain()
    w.close()
    print("submitted", w.submitted)


main()
