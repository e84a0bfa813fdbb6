# A context manager class (not @contextmanager) that stages a pinned buffer on the
# device: __enter__ uploads it, __exit__ takes it back. The body runs kernels on the
# staged device array; the host buffer is read again only after the block.
# The bug: the body logs the checksum of the host buffer while __enter__'s upload owns it.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from types import TracebackType
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def add_bias(a: Any, bias: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] += bias


class Staged:
    """Owns ``host`` outside the block; inside it the upload owns it."""

    def __init__(self, s: nx.Stream[nx.Owned], host: Host) -> None:
        self.s = s
        self.host = host
        self.dev: Dev = nx.device_array(host.shape, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def __enter__(self) -> Dev:
        self.pending = self.s.upload(self.host, to=self.dev)
        return self.dev

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None

    def fetch(self) -> Host:
        """Download the device array into the host buffer (outside the block)."""
        self.host = self.s.download(self.dev, into=self.host).wait()
        return self.host

    def checksum(self) -> float:
        return float(self.host.read().sum())


def main(n: int = 64) -> None:
    s = nx.stream()
    host = nx.pinned_copy(np.ones(n, np.float32))
    stage = Staged(s, host)
    with stage as dev:
        before = stage.checksum()  # E: use-after-transfer "stage.host"
        s.launch(add_bias, 1, 32, dev, 2.0)
    after = float(stage.fetch().read().sum())
    s.close()
    assert before == n and after == 3.0 * n, (before, after)


if __name__ == "__main__":
    main()
