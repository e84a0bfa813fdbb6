# RUN: raises UseAfterTransferError
# The prefetch is guarded by ``k + 2 < n``: false on the last two iterations, so the one
# before the last waits the transfer it already completed. (``k + 1 < n`` would be right.)
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    hosts = [nx.pinned_array(8, np.float32) for _ in range(3)]
    pending = s.upload(hosts[0], to=dev)
    for k in range(len(hosts)):
        hosts[k] = pending.wait()  # E: transfer-completed-twice
        if k + 2 < len(hosts):
            pending = s.upload(hosts[k + 1], to=dev)
    if not pending.completed:
        hosts[0] = pending.wait()
    for h in hosts:
        h.free()
    dev.free()
    s.close()


main()
