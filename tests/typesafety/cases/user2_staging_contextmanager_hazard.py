# A user @contextmanager that hands out a pinned staging buffer and a stream for a block
# of work, and checks at exit that the stream is idle. BUG: the block takes the checksum
# of what it sent right after the upload, before the wait(), trusting the context
# manager's synchronize() (which only runs at exit).
# RUN: raises UseAfterTransferError
from __future__ import annotations

import contextlib
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def negate(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = -a[i]


@contextlib.contextmanager
def staging(n: int) -> Iterator[tuple[nx.Stream[nx.Owned], Host]]:
    s = nx.stream()
    buf = nx.pinned_array(n, np.float32)
    yield s, buf
    s.synchronize()  # on normal exit only, like numba's auto_synchronize()
    s.close()


def main() -> None:
    dev = nx.device_array(N, np.float32)
    with staging(N) as (s, buf):
        with buf.write() as a:
            a[:] = np.arange(N, dtype=np.float32)
        up = s.upload(buf, to=dev)
        crc = zlib.crc32(buf.read().tobytes())  # E: use-after-transfer "buf" "is used"
        s.launch(negate, 1, N, dev)
        buf = up.wait()
        buf = s.download(dev, into=buf).wait()
        result = buf.read().copy()
    assert crc == zlib.crc32(np.arange(N, dtype=np.float32).tobytes())
    assert (result == -np.arange(N, dtype=np.float32)).all(), result


main()
