# nx.pinned blocks that end while a transfer of their handle is pending although no
# variable holds it: one added to a container as the block's last step (append, an
# index store, the producing call itself, inside an if), and one carried on by a
# chained transfer. The exit raises UnfinishedTransferError.
# RUN: raises UnfinishedTransferError
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def appended(arr: NDArray[np.float32], s: nx.Stream[nx.Owned]) -> None:
    dev = nx.device_array(arr.shape, arr.dtype)
    pending: list[nx.Transfer[Host]] = []
    with nx.pinned(arr) as h:  # E: unfinished-transfer "Transfer \"down\" (started at line 21 by Stream.download() with \"h\", added to \"pending\" at line 22) is still unfinished when this block ends" "\"h = down.wait()\""
        up = s.upload(h, to=dev)
        down = s.download(dev, into=up)
        pending.append(down)
    for t in pending:
        t.wait()


def keyed(arr: NDArray[np.float32], s: nx.Stream[nx.Owned], name: str) -> None:
    dev = nx.device_array(arr.shape, arr.dtype)
    pending: dict[str, nx.Transfer[Host]] = {}
    with nx.pinned(arr) as h:  # E: unfinished-transfer "\"up\"" "added to \"pending\""
        up = s.upload(h, to=dev)
        pending[name] = up
    pending[name].wait()


def direct(arr: NDArray[np.float32], s: nx.Stream[nx.Owned], now: bool) -> None:
    dev = nx.device_array(arr.shape, arr.dtype)
    pending: list[nx.Transfer[Host]] = []
    with nx.pinned(arr) as h:  # E: unfinished-transfer "The transfer (started at line 43" "may still be unfinished" "then \"h = t.wait()\""
        if now:
            h = s.upload(h, to=dev).wait()
        else:
            pending.append(s.upload(h, to=dev))
    for t in pending:
        t.wait()


def chained(arr: NDArray[np.float32], s: nx.Stream[nx.Owned]) -> None:
    dev = nx.device_array(arr.shape, arr.dtype)
    with nx.pinned(arr) as h:  # E: unfinished-transfer "Transfer \"down\" (started at line 52 by Stream.download() with \"h\") is still unfinished" "\"h = down.wait()\""
        up = s.upload(h, to=dev)
        down = s.download(dev, into=up)
    down.wait()


s = nx.stream()
appended(np.ones(8, np.float32), s)
s.close()
