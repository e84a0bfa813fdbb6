# A decorator that keeps the signature through ParamSpec (with functools.wraps) around
# a consuming function: the decorated function still moves its argument.
# RUN: raises UseAfterTransferError
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
        print("calling", f.__name__)
        return f(*args, **kwargs)

    return inner


@logged
def stage(buf: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: Dev) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


s = nx.stream()
dev = nx.device_array(8, np.float32)
host = nx.pinned_array(8, np.float32)
t = stage(host, s, dev)
host.read()  # E: use-after-transfer "moved into stage() at line 35" "host = t.wait()"
host = t.wait()
s.close()
