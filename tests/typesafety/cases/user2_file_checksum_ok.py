# A streaming checksum over a file: the file is read in chunks straight into buffers of a
# PinnedPool (readinto the write() view), each chunk is uploaded and summed on the device
# while the next one is read; the host also keeps a CRC of the bytes. Correct: the CRC is
# taken from the write() view before the buffer moves into its upload.
# RUN: ok
from __future__ import annotations

import os
import tempfile
import zlib
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

CHUNK = 16  # float32 values per chunk


@cuda.jit
def accumulate(chunk: Any, total: Any) -> None:
    i = cuda.grid(1)
    if i < chunk.size:
        cuda.atomic.add(total, 0, chunk[i])


def checksum_file(path: str) -> tuple[float, int]:
    s = nx.stream()
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, CHUNK, np.float32)
    dev_chunk = nx.device_array(CHUNK, np.float32)
    dev_total = nx.device_array(1, np.float32)
    s.upload_staged(np.zeros(1, dtype=np.float32), to=dev_total).wait()
    crc = 0
    with open(path, "rb") as f:
        while True:
            buf = pool.take()  # only a buffer whose last upload has finished
            with buf.write() as a:
                n = f.readinto(a.data.cast("B"))
                a[(n or 0) // 4 :] = 0.0
                crc = zlib.crc32(a.tobytes()[: n or 0], crc)
            if not n:
                pool.give(buf)
                break
            pool.recycle(s.upload(buf, to=dev_chunk))  # buf goes back with its copy
            s.launch(accumulate, 1, CHUNK, dev_chunk, dev_total)
    pool.drain()  # every recycled upload completed
    out = s.download(dev_total, into=nx.pinned_array(1, np.float32)).wait()
    total = float(out.read()[0])
    s.close()
    return total, crc


def main() -> None:
    data = np.arange(40, dtype=np.float32)  # 2.5 chunks: a short last read
    fd, path = tempfile.mkstemp(suffix=".bin")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.tobytes())
        total, crc = checksum_file(path)
    finally:
        os.unlink(path)
    assert total == float(data.sum()), total
    assert crc == zlib.crc32(data.tobytes()), crc


main()
