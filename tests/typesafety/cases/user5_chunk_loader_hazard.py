# A file loader with a generator yielding (index, pinned buffer) pairs (see
# user5_chunk_loader_ok.py). The bug, kind "use after upload before wait": the buffer is
# put back on the free list as soon as its upload is enqueued (the numba habit of
# recycling right after copy_to_device), so the generator refills it under the copy.
# (Simulator: UseAfterTransferError in the generator's write(). No RUN header: the
# static report is at the append, the runtime's at the later refill in the generator.)
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
        free.append(buf)  # E: use-after-transfer "buf"
        s.launch(accumulate, 1, 32, d_in, d_acc)
        count = index + 1
    for t in pending:
        t.wait()
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
