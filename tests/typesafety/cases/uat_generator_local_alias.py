# RUN: raises UseAfterTransferError
# The generator keeps a local alias of the staging buffer: the consumer rebinds the
# attribute from each upload's wait(), but the alias still names the moved handle.
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Stage = nx.PinnedArray[nx.Owned, np.float32]


class Offload:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.staging: Stage = nx.pinned_array(4, np.float32)
        self.dev = nx.device_array(4, np.float32)

    def chunks(self, data: list[float]) -> Iterator[tuple[int, nx.Transfer[Stage]]]:
        buf = self.staging
        for start in range(0, len(data), 4):
            part = data[start : start + 4]
            with buf.write() as a:  # E: use-after-transfer "in an earlier loop iteration"
                a[: len(part)] = part
            yield len(part), self.s.upload(buf, to=self.dev)  # E: use-after-transfer

    def run(self, data: list[float]) -> int:
        total = 0
        for n, up in self.chunks(data):
            total += n
            self.staging = up.wait()
        return total


Offload().run([float(i) for i in range(10)])
