# RUN: ok
# A loop in a try: each upload is waited and its name cleared at once (a plain
# assignment, which raises nothing); the handler takes back only what is still pending.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def check(step: int) -> None:
    if step == 2:
        raise FloatingPointError("bad batch")


s = nx.stream()
dev = nx.device_array(4, np.float32)
xb: Host = nx.pinned_array(4, np.float32)
pending: nx.Transfer[Host] | None = None
try:
    for step in range(4):
        pending = s.upload(xb, to=dev)
        check(step)
        xb = pending.wait()
        pending = None
except FloatingPointError:
    if pending is not None:
        xb = pending.wait()
        pending = None
print(xb.read().shape)
s.close()
