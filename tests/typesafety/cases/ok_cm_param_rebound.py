# RUN: ok
# A context manager that yields a stable view: when asked for a snapshot it copies the
# buffer first and lends the copy, so the caller may keep writing the original.
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
N = 8


@contextmanager
def stable_view(host: Host) -> Iterator[View]:
    """Lends a private copy of ``host``: the caller keeps ``host`` writable."""
    host = nx.pinned_copy(host.read())
    try:
        with host.lend() as view:
            yield view
    finally:
        host.free()


@contextmanager
def first_of(scratch: Host, data: Host) -> Iterator[View]:
    """Lends ``data`` (``scratch`` only sized the request)."""
    assert scratch.shape == data.shape
    with data.lend() as view:
        yield view


def main() -> None:
    live = nx.pinned_copy(np.arange(N, dtype=np.float32))
    other = nx.pinned_array(N, np.float32)
    with stable_view(live) as snap:
        with live.write() as a:  # the snapshot is a copy: live is not lent
            a[:] = 0.0
        print(float(snap.read().sum()))
    with first_of(other, live) as v:
        with other.write() as a:  # `other` is not the lent one
            a[:] = v.read()
    print(other.read())
    live.free()
    other.free()


main()
