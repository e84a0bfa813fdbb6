# RUN: ok
# A background thread downloads a result into a pinned buffer and publishes the completed
# buffer through a small ResultHolder guarded by an Event; the main thread reads it.
from __future__ import annotations

import threading
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


class ResultHolder:
    def __init__(self) -> None:
        self.ready = threading.Event()
        self.buf: Host | None = None

    def publish(self, buf: Host) -> None:
        self.buf = buf
        self.ready.set()

    def get(self) -> Host:
        self.ready.wait()
        assert self.buf is not None
        return self.buf


def background(s: nx.Stream[nx.Lent], dev: Dev, holder: ResultHolder, done: list[bool]) -> None:
    out = nx.pinned_array(dev.size, np.float32)
    down = s.download(dev, into=out)
    out = down.wait()
    holder.publish(out)
    done.append(True)


def main(n: int = 64) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    s.upload_staged(np.full(n, 2.0, dtype=np.float32), to=dev).wait()
    s.launch(scale, 1, 64, dev, 7.0)
    holder = ResultHolder()
    done: list[bool] = []
    t = threading.Thread(target=background, args=(s, dev, holder, done))
    t.start()
    t.join()
    value = float(holder.get().read()[0])
    s.close()
    assert value == 14.0 and done == [True], value
    return value


if __name__ == "__main__":
    main()
