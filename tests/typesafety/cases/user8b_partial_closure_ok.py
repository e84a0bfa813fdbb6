# RUN: ok
"""Stage factories built from closures and functools.partial."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]
DevF = nx.DeviceArray[nx.Owned, np.float32]
Stage = Callable[[HostF], nx.Transfer[HostF]]


@cuda.jit
def axpy(y: Any, x: Any, alpha: float) -> None:
    for i in range(cuda.grid(1), y.size, cuda.gridsize(1)):
        y[i] = alpha * x[i] + y[i]


def make_uploader(s: nx.Stream[nx.Lent], dev: DevF) -> Stage:
    def upload(buf: nx.Consumed[HostF]) -> nx.Transfer[HostF]:
        return s.upload(buf, to=dev)
    return upload


def make_downloader(s: nx.Stream[nx.Lent], dev: DevF) -> Stage:
    def download(buf: nx.Consumed[HostF]) -> nx.Transfer[HostF]:
        return s.download(dev, into=buf)
    return download


def launch(s: nx.Stream[nx.Lent], kernel: Any, *args: Any) -> None:
    s.launch(kernel, 1, 64, *args)


def main(n: int = 256, steps: int = 3) -> float:
    owner = nx.stream()
    x_dev = nx.device_array(n, np.float32)
    y_dev = nx.device_array(n, np.float32)
    with owner.lend() as s:
        send_x = make_uploader(s, x_dev)
        send_y = make_uploader(s, y_dev)
        fetch_y = make_downloader(s, y_dev)
        step = functools.partial(launch, s, axpy, y_dev, x_dev)

        y = send_y(nx.pinned_copy(np.zeros(n, np.float32))).wait()
        x = nx.pinned_array(n, np.float32)
        for k in range(steps):
            with x.write() as v:
                v[:] = float(k + 1)
            pending = send_x(x)
            step(0.5)
            x = pending.wait()
        y = fetch_y(y).wait()
    total = float(y.read().sum())
    assert total == 0.5 * n * sum(range(1, steps + 1)), total
    owner.close()
    return total


if __name__ == "__main__":
    main()
