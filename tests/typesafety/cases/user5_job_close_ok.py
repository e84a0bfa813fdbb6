# A job object with an explicit lifetime and no __del__: start() enqueues the upload, a
# kernel and the download on the job's own stream; result() takes the output back;
# close() completes whatever is still pending and closes the stream, and must be called
# (here from a finally). Each completion clears its attribute, so close() after result()
# waits only the upload.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def cumulative(a: Any) -> None:
    if cuda.grid(1) == 0:
        for i in range(1, a.size):
            a[i] += a[i - 1]


class Job:
    def __init__(self, data: NDArray[np.float32]) -> None:
        self.s = nx.stream()
        self.host: Host = nx.pinned_copy(data)
        self.out: Host = nx.pinned_array(data.size, np.float32)
        self.dev = nx.device_array(data.size, np.float32)
        self.up: nx.Transfer[Host] | None = None
        self.down: nx.Transfer[Host] | None = None

    def start(self) -> None:
        self.up = self.s.upload(self.host, to=self.dev)
        self.s.launch(cumulative, 1, 32, self.dev)
        self.down = self.s.download(self.dev, into=self.out)

    def result(self) -> NDArray[np.float32]:
        assert self.down is not None, "result() before start()"
        self.out = self.down.wait()
        self.down = None
        return self.out.read().copy()

    def close(self) -> None:
        if self.up is not None:
            self.host = self.up.wait()
            self.up = None
        if self.down is not None:
            self.out = self.down.wait()
            self.down = None
        self.s.close()


def run(data: NDArray[np.float32]) -> NDArray[np.float32]:
    job = Job(data)
    try:
        job.start()
        r = job.result()
    finally:
        job.close()
    return r


if __name__ == "__main__":
    data = np.ones(48, dtype=np.float32)
    assert np.array_equal(run(data), np.cumsum(data))
    print("job ok")
