# RUN: warns ResourceWarning anywhere
# What the last iteration of a counted loop leaves reaches the loop's exit: an upload
# started only there (``if k + 1 == n``) is left unfinished after the loop.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    host = nx.pinned_array(8, np.float32)
    pending: nx.Transfer[Host] | None = None
    for k in range(3):
        if pending is not None:
            host = pending.wait()
            pending = None
        if k + 1 == 3:
            pending = s.upload(host, to=dev)  # E: unfinished-transfer
    dev.free()


main()
