# Producer/consumer with threads: a producer thread fills a pinned buffer per batch,
# uploads it, scales it on the device and downloads into an output buffer; the download
# goes through a queue.Queue to the consumer (the main thread), which waits it and sums.
# Correct: the producer lets go of `out` when its download is queued and never looks at
# it again; the upload's buffer is taken back before it is refilled.
# RUN: ok
from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 16


@cuda.jit
def scale(src: Any, dst: Any, k: float) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i] * k


Item = tuple[int, nx.Transfer[Host]] | None


def producer(s: nx.Stream[nx.Owned], batches: int, q: queue.Queue[Item], errors: list[BaseException]) -> None:
    staging = nx.pinned_array(N, np.float32)
    d_in = nx.device_array(N, np.float32)
    d_out = nx.device_array(N, np.float32)
    try:
        for b in range(batches):
            with staging.write() as a:
                a[:] = float(b)
            up = s.upload(staging, to=d_in)
            s.launch(scale, 1, N, d_in, d_out, 2.0)
            out = nx.pinned_array(N, np.float32)
            q.put((b, s.download(d_out, into=out)))  # out travels with its download
            staging = up.wait()  # before the next fill
    except BaseException as e:  # handed to the main thread, which re-raises it
        errors.append(e)
    finally:
        q.put(None)


def main(batches: int = 4) -> None:
    s = nx.stream()
    q: queue.Queue[Item] = queue.Queue(maxsize=2)
    errors: list[BaseException] = []
    worker = threading.Thread(target=producer, args=(s, batches, q, errors))
    worker.start()
    sums: dict[int, float] = {}
    while (item := q.get()) is not None:
        b, down = item
        out = down.wait()
        sums[b] = float(out.read().sum())
    worker.join()
    if errors:
        raise errors[0]
    s.close()
    assert sums == {b: 2.0 * b * N for b in range(batches)}, sums


main()
