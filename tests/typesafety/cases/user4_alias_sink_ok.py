# A small library layer with type aliases for its buffer types: a Sink parameter is a
# buffer the function takes over (nx.Consumed behind a TypeAlias); the application
# code calls the library and takes the buffers back from the returned transfers.
# RUN: ok
from __future__ import annotations

from typing import TypeAlias

import numpy as np

import numbaxfer as nx

Host: TypeAlias = nx.PinnedArray[nx.Owned, np.float32]
Sink: TypeAlias = nx.Consumed[Host]
Pending: TypeAlias = nx.Transfer[Host]
N = 8


def push(buf: Sink, s: nx.Stream[nx.Lent], dev: nx.DeviceArray[nx.Owned, np.float32]) -> Pending:
    """Upload ``buf`` to ``dev``; ``buf`` moves into the returned transfer."""
    return s.upload(buf, to=dev)


def pull(s: nx.Stream[nx.Lent], dev: nx.DeviceArray[nx.Owned, np.float32], into: Sink) -> Pending:
    return s.download(dev, into=into)


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    buf = nx.pinned_copy(np.arange(N, dtype=np.float32))
    t = push(buf, s, dev)
    buf = t.wait()
    out = nx.pinned_array(N, np.float32)
    d = pull(s, dev, out)
    out = d.wait()
    assert np.array_equal(out.read(), buf.read())
    print("round trip ok:", out.read()[-1])
    s.close()


main()
