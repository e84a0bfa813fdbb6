# Failing over to a backup stream: a health check says whether the primary device is
# still usable, and an unusable primary (or a closed primary stream: a refused upload
# moves nothing) sends the same buffer on the backup stream instead. BUG: the health
# check runs after the upload, so when it fails the handler re-sends `host`, which the
# primary's upload already took.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def halve(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 0.5


class DeviceLost(RuntimeError):
    pass


class StreamSet:
    def __init__(self) -> None:
        self.primary = nx.stream()
        self.backup = nx.stream()
        self.healthy = True

    def check(self) -> None:
        if not self.healthy:
            raise DeviceLost("primary device stopped answering")


def send(streams: StreamSet, host: Host, dev: Dev) -> tuple[nx.Stream[nx.Owned], nx.Transfer[Host]]:
    try:
        up = streams.primary.upload(host, to=dev)  # E: unfinished-transfer
        streams.check()
    except (nx.StreamClosedError, DeviceLost):
        return streams.backup, streams.backup.upload(host, to=dev)  # E: use-after-transfer "host" "may be used"
    return streams.primary, up


def main() -> None:
    streams = StreamSet()
    dev = nx.device_array(N, np.float32)
    results = []
    for step in range(3):
        streams.healthy = step != 1
        host = nx.pinned_copy(np.full(N, 4.0 * (step + 1), dtype=np.float32))
        s, up = send(streams, host, dev)
        s.launch(halve, 1, N, dev)
        host = s.download(dev, into=up).wait()
        results.append(float(host.read()[0]))
    streams.primary.close()
    streams.backup.close()
    assert results == [2.0, 4.0, 6.0], results


main()
