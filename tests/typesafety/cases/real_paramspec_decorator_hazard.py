# A logging decorator that keeps the signature through ParamSpec, around a function
# that consumes its buffer (nx.Consumed): the caller writes the buffer after the call.
# RUN: raises UseAfterTransferError via-call
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
    t = stage(host, s, dev)
    with host.write() as a:  # E: use-after-transfer "host" "stage()" "host = t.wait()"
        a[:] = 1.0
    host = t.wait()
    stage(host, s, dev)  # E: unfinished-transfer "stage()"
    s.close()
    return float(len(calls))


main()
