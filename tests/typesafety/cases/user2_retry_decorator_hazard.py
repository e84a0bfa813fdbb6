# A retry decorator written with ParamSpec around a consuming send(): the first attempt
# fails a health check before anything is enqueued (so nothing moved), the retry goes
# through. BUG: the caller logs the sum of what it sent by reading `host` right after
# send(), while the upload still holds it.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
P = ParamSpec("P")
R = TypeVar("R")


class TransientError(RuntimeError):
    pass


def retry(times: int, on: tuple[type[BaseException], ...]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    def deco(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            for attempt in range(times):
                try:
                    return fn(*args, **kwargs)
                except on:
                    if attempt == times - 1:
                        raise
            raise AssertionError("unreachable")

        return wrapper

    return deco


_flaky = iter([False, True, True, True, True, True])


@retry(times=3, on=(TransientError,))
def send(buf: nx.Consumed[Host], s: nx.Stream[nx.Lent], dev: Dev) -> nx.Transfer[Host]:
    """Upload buf once the (flaky) link is up; raises before enqueuing anything."""
    if not next(_flaky):
        raise TransientError("link not ready")
    return s.upload(buf, to=dev)


@cuda.jit
def square(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * a[i]


def main() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    totals = []
    for i in range(3):
        with host.write() as a:
            a[:] = float(i)
        t = send(host, s, dev)
        sent = float(host.read().sum())  # E: use-after-transfer "host" "send()"
        s.launch(square, 1, 8, dev)
        host = t.wait()
        host = s.download(dev, into=host).wait()
        totals.append((sent, float(host.read().sum())))
    s.close()
    assert totals == [(8.0 * i, 8.0 * i * i) for i in range(3)], totals


main()
