# A codebase with its own type aliases (TypeAlias for the buffer, `Give` for a consumed
# one) and a ParamSpec-preserving @timed decorator on the helper that consumes the
# buffer; the caller takes the buffer back from the returned transfer before reuse.
# RUN: ok
from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import ParamSpec, TypeAlias, TypeVar

import numpy as np

import numbaxfer as nx

Buf: TypeAlias = nx.PinnedArray[nx.Owned, np.float32]
Give: TypeAlias = nx.Consumed[Buf]
Dev: TypeAlias = nx.DeviceArray[nx.Owned, np.float32]

P = ParamSpec("P")
R = TypeVar("R")
TIMINGS: dict[str, float] = {}


def timed(fn: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            TIMINGS[fn.__name__] = TIMINGS.get(fn.__name__, 0.0) + time.perf_counter() - t0

    return wrapper


@timed
def push(buf: Give, s: nx.Stream[nx.Owned], dev: Dev) -> nx.Transfer[Buf]:
    return s.upload(buf, to=dev)


@timed
def pull(dev: Dev, s: nx.Stream[nx.Owned], into: Give) -> nx.Transfer[Buf]:
    return s.download(dev, into=into)


def main(n: int = 8) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    buf = nx.pinned_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    total = 0.0
    for k in range(3):
        with buf.write() as a:
            a[:] = float(k)
        up = push(buf, s, dev)
        buf = up.wait()
        out = pull(dev, s, out).wait()
        total += float(out.read().sum())
    s.close()
    assert total == 24.0 and set(TIMINGS) == {"push", "pull"}, (total, TIMINGS)
    return total


main()
