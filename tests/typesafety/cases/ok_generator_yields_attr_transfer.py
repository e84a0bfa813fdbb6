# RUN: ok
# A generator that yields the upload of an attribute (`yield n, s.upload(self.staging,
# ...)`) hands the transfer to its consumer, which completes it and rebinds
# `self.staging` before it resumes the generator: after the yield, what the transfer
# moved where the consumer can reach it is not known to be moved (a local alias of it
# stays moved: uat_generator_local_alias.py).
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
        for start in range(0, len(data), 4):
            part = data[start : start + 4]
            with self.staging.write() as a:
                a[: len(part)] = part
            yield len(part), self.s.upload(self.staging, to=self.dev)

    def run(self, data: list[float]) -> int:
        total = 0
        for n, up in self.chunks(data):
            total += n
            self.staging = up.wait()
        return total


off = Offload()
print(off.run([float(i) for i in range(10)]))
off.staging.free()
off.s.close()
