# A closure that reads a lent handle, returned from the function, escapes with it: when
# it is called the block has ended and the handle has expired.
from collections.abc import Callable

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def reader(host: Host) -> Callable[[], float]:
    with host.lend() as v:

        def total() -> float:
            return float(v.read().sum())

        return total  # E: lend-escape "(read by the closure returned from its block) escapes with it" "lent at line 13"


def reader_lambda(host: Host) -> Callable[[], float]:
    with host.lend() as v:
        return lambda: float(v.read().sum())  # E: lend-escape "\"v\" (read by the closure returned"


def reader_after(host: Host) -> Callable[[], float]:
    with host.lend() as v:

        def total() -> float:
            return float(v.read().sum())

        print(total())
    return total  # E: lend-escape "escapes with it"
