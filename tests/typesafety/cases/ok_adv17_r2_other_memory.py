# Rule 2, correct: the display at the end of the pinned block holds transfers that do
# not use the block's memory (downloads into freshly allocated pinned arrays, a
# device-to-device copy): the block's exit has nothing unfinished; they are completed
# after it.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


def stage_and_fetch(a: NDArray[np.float32], d: Dev, e: Dev) -> float:
    s = nx.stream()
    with nx.pinned(a) as ha:
        up = s.upload(ha, to=d)
        ha = up.wait()
        downs = [
            s.download(d, into=nx.pinned_array(8, np.float32)),
            s.download(e, into=nx.pinned_array(8, np.float32)),
        ]
    total = 0.0
    for down in downs:
        host = down.wait()
        total += float(host.read().sum())
        host.free()
    return total


def mirror(a: NDArray[np.float32], d: Dev, e: Dev) -> None:
    s = nx.stream()
    with nx.pinned(a) as ha:
        ha = s.upload(ha, to=d).wait()
        copies = (s.copy(d, to=e), s.download(e, into=nx.pinned_array(8, np.float32)))
    copies[0].wait()
    copies[1].wait().free()


x = np.ones(8, np.float32)
dd, de = nx.device_array(8, np.float32), nx.device_array(8, np.float32)
print(stage_and_fetch(x, dd, de))
mirror(x, dd, de)
