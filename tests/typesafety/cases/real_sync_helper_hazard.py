# A synchronous helper that uploads its parameter and waits, without declaring it
# nx.Consumed and without returning the handle: the caller's handle is the old one,
# retired by the transfer, and the caller reads it.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def push_sync(host: Host, s: nx.Stream[nx.Owned], dev: Dev) -> None:
    """Upload ``host`` and wait (the handle it gives back is dropped here)."""
    host = s.upload(host, to=dev).wait()
    print(float(host.read()[0]))


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    host = nx.pinned_array(16, np.float32)
    push_sync(host, s, dev)
    with host.write() as a:  # E: use-after-transfer "host" "push_sync()"
        a[:] = 1.0
    s.close()
    return float(host.read()[0])  # E: use-after-transfer "host" "push_sync()"


main()
