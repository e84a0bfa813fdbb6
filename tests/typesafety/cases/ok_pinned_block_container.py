# nx.pinned blocks whose transfers go through a container or a chain and are complete
# when the block ends: waited in the block after the add (by index, by pop, in a loop),
# handed with the container to a function that waits them, a chained download waited
# in the block, and an add of a transfer that does not take the block's handle.
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def drain(pending: list[nx.Transfer[Host]]) -> None:
    while pending:
        pending.pop().wait()


def waited_after_add(arr: NDArray[np.float32], s: nx.Stream[nx.Owned]) -> None:
    dev = nx.device_array(arr.shape, arr.dtype)
    pending: list[nx.Transfer[Host]] = []
    with nx.pinned(arr) as h:
        up = s.upload(h, to=dev)
        pending.append(s.download(dev, into=up))
        h = pending.pop().wait()
    with nx.pinned(arr) as h:
        pending.append(s.upload(h, to=dev))
        for t in pending:
            t.wait()
    pending.clear()
    with nx.pinned(arr) as h:
        pending.append(s.upload(h, to=dev))
        drain(pending)


def keyed(arr: NDArray[np.float32], s: nx.Stream[nx.Owned]) -> None:
    dev = nx.device_array(arr.shape, arr.dtype)
    pending: dict[str, nx.Transfer[Host]] = {}
    with nx.pinned(arr) as h:
        pending["a"] = s.upload(h, to=dev)
        h = pending["a"].wait()


def chained(arr: NDArray[np.float32], s: nx.Stream[nx.Owned]) -> None:
    dev = nx.device_array(arr.shape, arr.dtype)
    with nx.pinned(arr) as h:
        up = s.upload(h, to=dev)
        down = s.download(dev, into=up)
        h = down.wait()


def other_buffer(arr: NDArray[np.float32], spare: Host, dev: Dev, s: nx.Stream[nx.Owned]) -> Host:
    pending: list[nx.Transfer[Host]] = []
    with nx.pinned(arr) as h:
        h = s.upload(h, to=dev).wait()
        pending.append(s.upload(spare, to=dev))  # spare is not pinned by this block
    return pending[0].wait()


s = nx.stream()
a = np.ones(8, np.float32)
waited_after_add(a, s)
keyed(a, s)
chained(a, s)
spare = other_buffer(a, nx.pinned_array(8, np.float32), nx.device_array(8, np.float32), s)
s.close()
