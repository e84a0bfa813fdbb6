# RUN: ok
"""Squaring a large pinned array in parallel: the array and its device copy are split
into owned parts of ``chunk`` rows, and a thread pool runs one part per worker, each on
its own stream (upload, kernel, download back into the same part).

The ragged last part is small, so the request thread processes it itself while the
workers run; every part's download is completed before the parts are joined back.
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
def square(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * a[i]


class PartWorkers:
    def __init__(self, workers: int) -> None:
        self.streams = [nx.stream() for _ in range(workers + 1)]  # the last: the caller's
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="part")

    def _process(self, i: int, hp: Host, dp: Dev) -> nx.Transfer[Host]:
        s = self.streams[i % len(self.streams)]
        hp = s.upload(hp, to=dp).wait()  # the part comes home before the kernel needs it
        s.launch(square, 1, 16, dp)
        return s.download(dp, into=hp)

    def square_all(self, host: Host, dev: Dev, chunk: int) -> tuple[Host, Dev]:
        hparts = nx.split(host, chunk=chunk)
        dparts = nx.split(dev, chunk=chunk)
        last = len(hparts) - 1
        futures: dict[int, Future[nx.Transfer[Host]]] = {
            i: self.pool.submit(self._process, i, hparts[i], dparts[i]) for i in range(last)
        }
        downs: dict[int, nx.Transfer[Host]] = {}
        downs[last] = self._process(len(self.streams) - 1, hparts[last], dparts[last])
        for i, fut in futures.items():
            downs[i] = fut.result()
        for i, down in downs.items():
            hparts[i] = down.wait()
        return nx.join(hparts), nx.join(dparts)

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        for s in self.streams:
            s.close()


def main() -> None:
    n, chunk = 200, 48  # 4 full parts and a ragged tail of 8 rows
    values = np.arange(n, dtype=np.float32) % 13
    host = nx.pinned_copy(values)
    dev = nx.device_array(n, np.float32)
    workers = PartWorkers(workers=4)
    try:
        host, dev = workers.square_all(host, dev, chunk)
        first = host.read().copy()
        host, dev = workers.square_all(host, dev, chunk)  # the joined arrays split again
    finally:
        workers.close()
    assert np.array_equal(first, values**2), "first pass"
    assert np.array_equal(host.read(), values**4), "second pass"
    host.free()
    dev.free()
    print(f"split_tail: {n} elements squared twice in parts of {chunk}")


if __name__ == "__main__":
    main()
