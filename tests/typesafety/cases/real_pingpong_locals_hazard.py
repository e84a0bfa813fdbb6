# Ping-pong with two local buffers swapped by tuple assignment, without waiting before
# the swap: two frames later the back buffer is the one an upload still reads (the swap
# also stores, and the upload moves again, a buffer an earlier upload moved; from the
# third frame on both names of the swap hold moved buffers).
# RUN: raises UseAfterTransferError
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def stream_frames(frames: int, n: int = 32) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    front = nx.pinned_array(n, np.float32)
    back = nx.pinned_array(n, np.float32)
    pending: list[nx.Transfer[Host]] = []
    for k in range(frames):
        with back.write() as a:  # E: use-after-transfer "back" "earlier loop iteration"
            a[:] = k
        front, back = back, front  # a swap only renames: the moved buffer is used below
        pending.append(s.upload(front, to=dev))  # E: use-after-transfer "front" "earlier loop iteration"
    homes = [t.wait() for t in pending]
    s.close()
    return float(homes[-1].read()[0])


stream_frames(5)
