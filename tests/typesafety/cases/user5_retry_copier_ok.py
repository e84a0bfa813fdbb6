# A retry wrapper class (not a decorator) around an upload: it tries the streams it was
# given in turn, and a stream that refuses the copy because it was closed (another part
# of the application tore it down) is skipped. A refused upload moves nothing, so the
# same buffer is handed to the next stream.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def negate(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = -a[i]


class CopyRetrier:
    def __init__(self, streams: list[nx.Stream[nx.Owned]], attempts: int = 3) -> None:
        self.streams = streams
        self.attempts = attempts
        self.failures = 0
        self.used: nx.Stream[nx.Owned] | None = None

    def upload(self, host: nx.Consumed[Host], dev: Dev) -> nx.Transfer[Host]:
        last: Exception | None = None
        for attempt in range(self.attempts):
            s = self.streams[attempt % len(self.streams)]
            try:
                t = s.upload(host, to=dev)
            except nx.StreamClosedError as exc:  # refused: host did not move
                last = exc
                self.failures += 1
                continue
            self.used = s
            return t
        raise RuntimeError(f"upload failed after {self.attempts} attempts") from last


def main() -> float:
    streams = [nx.stream(), nx.stream()]
    streams[0].close()  # torn down elsewhere (say, a device reset handler)
    retrier = CopyRetrier(streams)
    host = nx.pinned_array(64, np.float32)
    with host.write() as a:
        a[:] = np.arange(64, dtype=np.float32)
    dev = nx.device_array(64, np.float32)
    t = retrier.upload(host, dev)
    host = t.wait()
    s = retrier.used
    assert s is not None and retrier.failures == 1
    s.launch(negate, 1, 32, dev)
    host = s.download(dev, into=host).wait()
    total = float(host.read().sum())
    streams[1].close()
    return total


if __name__ == "__main__":
    assert main() == -float(sum(range(64)))
    print("retry ok")
