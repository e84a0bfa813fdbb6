# Overlapping CPU preprocessing with an upload by polling: while batch i's upload runs,
# the CPU prepares batch i + 1 in a second buffer, checking done() between pieces of
# work; the finished upload's buffer is then taken back and reused.
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N, BATCHES = 16, 4


def prepare(batch: int, out: NDArray[np.float32]) -> None:
    for part in range(4):
        out[part * 4 : (part + 1) * 4] = batch * 10 + part


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    cur, nxt = nx.pinned_array(N, np.float32), nx.pinned_array(N, np.float32)
    with cur.write() as a:
        prepare(0, a)
    polls = 0
    for batch in range(BATCHES):
        up = s.upload(cur, to=dev)
        if batch + 1 < BATCHES:
            with nxt.write() as a:
                prepare(batch + 1, a)
        while not up.done():
            polls += 1
        cur = up.wait()
        cur, nxt = nxt, cur
    check = s.download(dev, into=cur).wait()
    assert float(check.read()[-1]) == 33.0, check.read()
    print("batches", BATCHES, "polls", polls)
    s.close()


main()
