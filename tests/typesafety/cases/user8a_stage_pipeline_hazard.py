# RUN: raises UseAfterTransferError via-call
# Planted bug: run() calls the stages out of order (upload before audit), so audit() reads the batch's host buffer while the upload owns it.
# Reported at the call self.audit(b) (line 73), the method summary of audit() reading b.host.
"""A small staged pipeline object: each batch goes fill -> audit -> upload -> compute ->
download -> finish, one method per stage, with the batch's buffers on a Batch record."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def clamp01(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = min(1.0, max(0.0, src[i]))


@dataclass
class Batch:
    index: int
    host: Host
    transfer: nx.Transfer[Host] | None = None
    clipped: int = 0
    total: float = 0.0


class ClampPipeline:
    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.d_in: Dev = nx.device_array(n, np.float32)
        self.d_out: Dev = nx.device_array(n, np.float32)
        self.log: list[str] = []

    def fill(self, b: Batch) -> None:
        rng = np.random.default_rng(b.index)
        with b.host.write() as a:
            a[:] = rng.uniform(-0.5, 1.5, a.size)

    def audit(self, b: Batch) -> None:
        values = b.host.read()
        b.clipped = int(((values < 0.0) | (values > 1.0)).sum())
        self.log.append(f"batch {b.index}: {b.clipped} values out of range")

    def upload(self, b: Batch) -> None:
        b.transfer = self.stream.upload(b.host, to=self.d_in)

    def compute(self, b: Batch) -> None:
        self.stream.launch(clamp01, 1, self.d_in.size, self.d_in, self.d_out)

    def download(self, b: Batch) -> None:
        assert b.transfer is not None
        b.host = b.transfer.wait()
        b.transfer = self.stream.download(self.d_out, into=b.host)

    def finish(self, b: Batch) -> None:
        assert b.transfer is not None
        b.host = b.transfer.wait()
        b.transfer = None
        b.total = float(b.host.read().sum())

    def run(self, b: Batch) -> Batch:
        self.fill(b)
        self.upload(b)
        self.audit(b)  # E: use-after-transfer "(read by \"ClampPipeline.audit()\", called here)"
        self.compute(b)
        self.download(b)
        self.finish(b)
        return b


def main() -> None:
    pipe = ClampPipeline(40)
    host: Host = nx.pinned_array(40, np.float32)
    for i in range(3):
        done = pipe.run(Batch(i, host))
        assert 0.0 <= done.total <= 40.0, done.total
        host = done.host
    pipe.stream.close()
    print("\n".join(pipe.log))


if __name__ == "__main__":
    main()
