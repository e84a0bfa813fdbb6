# RUN: ok
# A two-slot ring loop that takes the next iteration's slot back at the end of each iteration: the read at the top is safe. (Found by an adversarial review.)
"""Ring of two slots: each iteration takes back the next iteration's slot at its end,
so the read at the top is safe; a defensive take-back follows the read."""
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
    pend: list[nx.Transfer[Host] | None] = [None, None]
    for i in range(5):
        k = i % 2
        print(bufs[k].read()[0])
        t = pend[k]
        if t is not None:
            bufs[k] = t.wait()
            pend[k] = None
        pend[k] = s.upload(bufs[k], to=dev)
        j = (i + 1) % 2
        u = pend[j]
        if u is not None:
            bufs[j] = u.wait()
            pend[j] = None
    for k in range(2):
        t = pend[k]
        if t is not None:
            bufs[k] = t.wait()
    s.close()


if __name__ == "__main__":
    main()
