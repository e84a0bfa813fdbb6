# A user @contextmanager lend used only inside the user's block, its results kept; a
# context manager yielding an owned handle is not a lend (it stays usable).
# RUN: ok
import contextlib
from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@contextlib.contextmanager
def borrowed(host: Host) -> Iterator[nx.PinnedArray[nx.Lent, np.float32]]:
    with host.lend() as v:
        yield v


@contextlib.contextmanager
def filled(n: int) -> Iterator[Host]:
    h = nx.pinned_array(n, np.float32)
    with h.write() as a:
        a[:] = 2.0
    yield h


def total(host: Host) -> float:
    with borrowed(host) as v:
        return float(v.read().sum())


with filled(8) as host:
    with borrowed(host) as view:
        kept = view.read().copy()
        size = view.size
    print(total(host), kept[0], size)
host.read()
view = host
print(view.read()[0])
