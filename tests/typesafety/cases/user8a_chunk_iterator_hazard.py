# RUN: raises UseAfterTransferError
# XFAIL: miss (line 57): `self.spare, self.host = landed, self.host` makes self.spare the landed buffer, and _start() moves the entry value of self.spare through a local alias (buf = self.spare; self.spare = None); a move of an attribute's entry value through an alias is not in the summary, so the read of `landed` is not reported
# Planted bug: the buffer swap is written the wrong way round, so the landed buffer becomes the spare that _start() downloads the next chunk into; reading it afterwards reads a moved buffer.
"""An iterator over device results: __next__ hands out chunk i while chunk i+1 is already
being downloaded into the other of two pinned buffers."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def cube(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i] * src[i] * src[i]


class ResultChunks:
    def __init__(self, device_chunks: list[Dev], s: nx.Stream[nx.Owned]) -> None:
        self.chunks = device_chunks
        self.stream = s
        n = device_chunks[0].size
        self.spare: Host | None = nx.pinned_array(n, np.float32)
        self.host: Host | None = nx.pinned_array(n, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        self.index = 0

    def __iter__(self) -> ResultChunks:
        return self

    def _start(self, i: int) -> None:
        buf = self.spare
        assert buf is not None
        self.spare = None
        self.pending = self.stream.download(self.chunks[i], into=buf)

    def __next__(self) -> NDArray[np.float32]:
        if self.index >= len(self.chunks):
            raise StopIteration
        if self.pending is None:
            self._start(self.index)
        assert self.pending is not None
        landed = self.pending.wait()
        self.pending = None
        self.spare, self.host = landed, self.host
        self.index += 1
        if self.index < len(self.chunks):
            self._start(self.index)
        result = landed.read().copy()  # E: use-after-transfer
        return result


def main() -> None:
    n, count = 16, 4
    s = nx.stream()
    devs: list[Dev] = []
    for k in range(count):
        d_in = nx.device_array(n, np.float32)
        s.upload_staged(np.arange(n, dtype=np.float32) + k, to=d_in)
        d_out = nx.device_array(n, np.float32)
        s.launch(cube, 1, n, d_in, d_out)
        devs.append(d_out)
    totals = [float(chunk.sum()) for chunk in ResultChunks(devs, s)]
    s.close()
    expected = [float(((np.arange(n) + k) ** 3).sum()) for k in range(count)]
    assert totals == expected, (totals, expected)
    print("iterator:", totals)


if __name__ == "__main__":
    main()
