# RUN: raises UseAfterTransferError
# A check that raises after the download was started and before its wait(): the
# finally frees the buffer the download still owns.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


def check(x: int) -> None:
    if x < 0:
        raise ValueError(x)


def mean_of(s: nx.Stream[nx.Lent], d: Dev, x: int) -> float:
    scratch = nx.pinned_array(8, np.float32)
    try:
        down = s.download(d, into=scratch)
        check(x)
        scratch = down.wait()
        return float(scratch.read().mean())
    finally:
        scratch.free()  # E: use-after-transfer "may be used" "scratch = down.wait()"


s = nx.stream()
dev = nx.device_array(8, np.float32)
mean_of(s, dev, -1)
