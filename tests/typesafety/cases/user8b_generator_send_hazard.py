# RUN: raises UseAfterTransferError
# Planted bug: the generator ignores the buffer sent back and refills its own `buf`, which the consumer moved into an upload.
"""A staging generator refills one pinned buffer; the consumer sends it back after each copy."""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def running_max(acc: Any, chunk: Any) -> None:
    for i in range(cuda.grid(1), acc.size, cuda.gridsize(1)):
        if chunk[i] > acc[i]:
            acc[i] = chunk[i]


def staged_chunks(data: NDArray[np.float32], chunk: int) -> Generator[HostF, HostF, None]:
    """Yield `buf` filled with the next slice; expects the buffer back through send()."""
    buf = nx.pinned_array(chunk, np.float32)
    for start in range(0, data.size, chunk):
        piece = data[start : start + chunk]
        with buf.write() as v:  # E: use-after-transfer
            v[: piece.size] = piece
            v[piece.size :] = -np.inf
        yield buf  # E: use-after-transfer "the yield at line 33 handed it to the consumer"
    buf.free()  # E: use-after-transfer "bind it, \"buf = yield buf\""


def reduce_max(data: NDArray[np.float32], chunk: int) -> NDArray[np.float32]:
    s = nx.stream()
    chunk_dev = nx.device_array(chunk, np.float32)
    acc = nx.device_array(chunk, np.float32)
    init = nx.pinned_copy(np.full(chunk, -np.inf, dtype=np.float32))
    init = s.upload(init, to=acc).wait()
    gen = staged_chunks(data, chunk)
    buf = next(gen)
    while True:
        up = s.upload(buf, to=chunk_dev)
        s.launch(running_max, 1, 64, acc, chunk_dev)
        buf = up.wait()
        try:
            buf = gen.send(buf)
        except StopIteration:
            break
    out = s.download(acc, into=init).wait()
    result: NDArray[np.float32] = out.read().copy()
    s.close()
    return result


def main(n: int = 1000, chunk: int = 128) -> NDArray[np.float32]:
    data = np.random.default_rng(3).random(n, dtype=np.float32)
    result = reduce_max(data, chunk)
    padded = np.full(((n + chunk - 1) // chunk) * chunk, -np.inf, dtype=np.float32)
    padded[:n] = data
    assert np.array_equal(result, padded.reshape(-1, chunk).max(axis=0))
    return result


if __name__ == "__main__":
    main()
