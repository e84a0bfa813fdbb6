# The handle of a user @contextmanager lend escaping the user's block: returned, or
# kept in an attribute. Generator form: a Generator[...] return type works the same.
from collections.abc import Generator
from contextlib import contextmanager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


@contextmanager
def reading(host: Host) -> Generator[View, None, None]:
    with host.lend() as v:
        yield v


def first_view(host: Host) -> View:
    with reading(host) as v:
        return v  # E: lend-escape "\"v\" is returned from its block" "\"with reading(...)\" block (lent at line 21)"


class Cache:
    def __init__(self) -> None:
        self.v: View | None = None

    def fill(self, host: Host) -> None:
        with reading(host) as v:
            self.v = v  # E: lend-escape "is stored where it outlives its block"


def after(host: Host) -> float:
    with reading(host) as v:
        pass
    return float(v.read().sum())  # E: lend-escape "is used after its \"with reading(...)\" block"
