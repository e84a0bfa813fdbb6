# A logging decorator that keeps the signature through ParamSpec, around a function
# that consumes its buffer (nx.Consumed); the caller takes the buffer back. Correct.
# RUN: ok
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import numpy as np

import numbaxfer as nx

P = ParamSpec("P")
R = TypeVar("R")
Host = nx.PinnedArray[nx.Owned, np.float32]

calls: list[str] = []


def logged(fn: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(fn)
    def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        calls.append(fn.__name__)
        return fn(*args, **kwargs)

    return inner


@logged
def stage(
    buf: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32]
) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    host = nx.pinned_array(16, np.float32)
    for i in range(3):
        with host.write() as a:
            a[:] = i
        t = stage(host, s, dev)
        host = t.wait()
    s.close()
    return float(host.read().sum()) + len(calls)


main()
