# A file loader: a helper generator reads a binary file of float32 chunk by chunk into
# pinned buffers taken from a free list and yields (index, buffer) pairs; the consumer
# uploads each buffer and accumulates it on the device, and puts a buffer back on the
# free list only once its upload has given it back (two buffers: reading the next chunk
# overlaps the copy of the last one).
# RUN: ok
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def accumulate(x: Any, acc: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc[i] += x[i]


def read_chunks(path: str, chunk: int, free: list[Host]) -> Iterator[tuple[int, Host]]:
    with open(path, "rb") as f:
        index = 0
        while raw := f.read(chunk * 4):
            vals = np.frombuffer(raw, dtype=np.float32)
            buf = free.pop()
            with buf.write() as a:
                a[: vals.size] = vals
                a[vals.size :] = 0.0
            yield index, buf
            index += 1


def load_and_sum(path: str, chunk: int) -> tuple[int, float]:
    s = nx.stream()
    d_in = nx.device_array(chunk, np.float32)
    d_acc = nx.device_array(chunk, np.float32)
    s.upload_staged(np.zeros(chunk, np.float32), to=d_acc)
    free: list[Host] = [nx.pinned_array(chunk, np.float32) for _ in range(2)]
    pending: list[nx.Transfer[Host]] = []
    count = 0
    for index, buf in read_chunks(path, chunk, free):
        pending.append(s.upload(buf, to=d_in))
        s.launch(accumulate, 1, 32, d_in, d_acc)
        count = index + 1
        if not free:  # the generator needs a buffer for the next chunk
            free.append(pending.pop(0).wait())
    while pending:
        free.append(pending.pop(0).wait())
    out = nx.pinned_array(chunk, np.float32)
    out = s.download(d_acc, into=out).wait()
    total = float(out.read().sum())
    for b in free:
        b.free()
    s.close()
    return count, total


if __name__ == "__main__":
    data = np.arange(300, dtype=np.float32)
    fd, path = tempfile.mkstemp(suffix=".f32")
    os.close(fd)
    try:
        data.tofile(path)
        count, total = load_and_sum(path, 64)
    finally:
        os.remove(path)
    assert (count, total) == (5, float(data.sum())), (count, total)
    print("loader ok")
