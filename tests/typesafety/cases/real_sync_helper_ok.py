# A synchronous helper that uploads its argument and waits: it returns the handle the
# transfer gave back, and the caller rebinds its name from the call. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def push_sync(host: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: Dev) -> Host:
    """Upload ``host`` and wait; the buffer comes back as the returned handle."""
    return s.upload(host, to=dev).wait()


def pull_sync(dev: Dev, s: nx.Stream[nx.Owned], out: Host) -> Host:
    out = s.download(dev, into=out).wait()
    return out


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    host = nx.pinned_array(16, np.float32)
    with host.write() as a:
        a[:] = 7.0
    host = push_sync(host, s, dev)
    out = pull_sync(dev, s, nx.pinned_array(16, np.float32))
    out = pull_sync(dev, s, out)
    s.close()
    return float(host.read()[0] + out.read().sum())


main()
