# A retry loop that forgets to break after the upload succeeded: the next attempt moves
# the buffer the first upload already owns (and drops that upload's transfer).
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def upload_with_retry(
    host: Host, dev: nx.DeviceArray[nx.Owned, np.float32], streams: list[nx.Stream[nx.Owned]]
) -> Host:
    up: nx.Transfer[Host] | None = None
    for s in streams:
        try:
            up = s.upload(host, to=dev)  # E: use-after-transfer "host" "earlier loop iteration" # E: unfinished-transfer "up"
        except nx.StreamClosedError:
            continue
    if up is None:
        raise RuntimeError("no open stream")
    return up.wait()


def main() -> float:
    a, b = nx.stream(), nx.stream()
    host = nx.pinned_array(16, np.float32)
    dev = nx.device_array(16, np.float32)
    host = upload_with_retry(host, dev, [a, b])
    total = float(host.read().sum())
    a.close()
    b.close()
    return total


main()
