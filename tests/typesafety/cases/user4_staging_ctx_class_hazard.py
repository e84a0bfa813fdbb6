# A user class that is its own context manager: __enter__ allocates a pinned staging
# buffer and a device buffer, send() uploads through them and takes the staging
# buffer back, __exit__ frees both. Callers use it in a with-statement. The bug:
# __exit__ frees the buffers without flushing, so the last upload's staging buffer is
# freed while that upload still owns it.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from types import TracebackType

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 16


class StagingSession:
    def __init__(self, s: nx.Stream[nx.Lent]) -> None:
        self.s = s
        self.sent = 0

    def __enter__(self) -> StagingSession:
        self.staging: Host = nx.pinned_array(N, np.float32)
        self.dev: Dev = nx.device_array(N, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        return self

    def send(self, data: NDArray[np.float32]) -> None:
        self.flush()
        with self.staging.write() as a:
            a[:] = data
        self.pending = self.s.upload(self.staging, to=self.dev)
        self.sent += 1

    def flush(self) -> None:
        if self.pending is not None:
            self.staging = self.pending.wait()
            self.pending = None

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.staging.free()
        self.dev.free()


def main() -> None:
    s = nx.stream()
    with StagingSession(s) as session:  # E: use-after-transfer "staging"
        for i in range(3):
            session.send(np.full(N, float(i), np.float32))
    assert session.sent == 3
    print("sent", session.sent)
    s.close()


main()
