# Rule 2, correct: transfers of the block's memory completed inside the block, then
# kept in a display as its last statement (for a report afterwards): nothing is
# unfinished at the block's exit.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Host = nx.PinnedArray[nx.Owned, np.float32]


def both(a: NDArray[np.float32], b: NDArray[np.float32], d: Dev, e: Dev) -> list[str]:
    s = nx.stream()
    with nx.pinned(a, b) as (ha, hb):
        up_a = s.upload(ha, to=d)
        up_b = s.upload(hb, to=e)
        ha = up_a.wait()
        hb = up_b.wait()
        done = [up_a, up_b]
    return [repr(t) for t in done if t.completed]


def chained(a: NDArray[np.float32], d: Dev) -> bool:
    s = nx.stream()
    with nx.pinned(a) as ha:
        up = s.upload(ha, to=d)
        down = s.download(d, into=up)
        ha = down.wait()
        log = (up, down)
    return all(t.completed for t in log)


x = np.ones(8, np.float32)
dd, de = nx.device_array(8, np.float32), nx.device_array(8, np.float32)
print(both(x, x.copy(), dd, de))
print(chained(x, dd))
