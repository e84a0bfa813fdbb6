# The decorated consuming function used correctly: the buffer is taken back before use;
# a decorated function without Consumed parameters moves nothing.
# RUN: ok
import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import numpy as np

import numbaxfer as nx

P = ParamSpec("P")
R = TypeVar("R")
Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def logged(f: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(f)
    def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        return f(*args, **kwargs)

    return inner


@logged
def stage(buf: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: Dev) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


@logged
def total(buf: Host) -> float:
    return float(buf.read().sum())


s = nx.stream()
dev = nx.device_array(8, np.float32)
host = nx.pinned_array(8, np.float32)
print(total(host))
t = stage(host, s, dev)
host = t.wait()
print(total(host))
s.close()
