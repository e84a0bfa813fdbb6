# RUN: raises StreamClosedError
# XFAIL: miss (line 75): main() closes uploader.stream while the transfers ShardUploader.enqueue() started on it are pending in uploader.uploads and uploader.downloads; transfers kept by a method in a container attribute, against a close by the caller, are not followed
# Planted bug: main() closes the uploader's stream before finish() has completed the queued transfers.
"""Thread-pool uploader: a ThreadPoolExecutor fills pinned buffers, the main thread
enqueues the copies on one shared stream and collects them.

Filling (CPU work) runs on pool threads; each future returns an owned pinned buffer.
The main thread uploads each one into its own device shard, launches a reduction-friendly
kernel and downloads; every transfer is kept in a list and completed before the stream
is closed.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def offset(a: Any, by: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += by


def fill(index: int, width: int) -> Host:
    buf = nx.pinned_array(width, np.float32)
    with buf.write() as view:
        view[:] = np.arange(width, dtype=np.float32) + index
    return buf


class ShardUploader:
    def __init__(self, shards: int, width: int) -> None:
        self.width = width
        self.stream = nx.stream()
        self.devs: list[Dev] = [nx.device_array(width, np.float32) for _ in range(shards)]
        self.uploads: list[nx.Transfer[Host]] = []
        self.downloads: list[nx.Transfer[Host]] = []

    def enqueue(self, index: int, buf: Host) -> None:
        dev = self.devs[index]
        self.uploads.append(self.stream.upload(buf, to=dev))
        self.stream.launch(offset, (self.width + 63) // 64, 64, dev, 1.0)
        out = nx.pinned_array(self.width, np.float32)
        self.downloads.append(self.stream.download(dev, into=out))

    def finish(self) -> list[float]:
        for up in self.uploads:
            up.wait().free()
        sums = [float(d.wait().read().sum(dtype=np.float64)) for d in self.downloads]
        self.uploads.clear()
        self.downloads.clear()
        return sums

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    shards, width = 4, 256
    uploader = ShardUploader(shards, width)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures: list[Future[Host]] = [pool.submit(fill, k, width) for k in range(shards)]
        for index, fut in enumerate(futures):
            uploader.enqueue(index, fut.result())
    uploader.stream.close()  # E: unfinished-transfer
    sums = uploader.finish()
    base = float(np.arange(width).sum())
    assert sums == [base + width * (k + 1.0) for k in range(shards)], sums
    print("thread_pool ok", sums)


if __name__ == "__main__":
    main()
