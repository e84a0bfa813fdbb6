# A retry loop: the upload is attempted on up to three streams; a refused call (closed
# stream) moves nothing, success breaks out, and running out of attempts raises. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def upload_with_retry(
    host: Host, dev: nx.DeviceArray[nx.Owned, np.float32], streams: list[nx.Stream[nx.Owned]]
) -> Host:
    for s in streams:
        try:
            up = s.upload(host, to=dev)
        except nx.StreamClosedError:
            continue
        break
    else:
        raise RuntimeError("no open stream")
    return up.wait()


def main() -> float:
    dead, alive = nx.stream(), nx.stream()
    dead.close()
    host = nx.pinned_array(16, np.float32)
    dev = nx.device_array(16, np.float32)
    with host.write() as a:
        a[:] = 5.0
    host = upload_with_retry(host, dev, [dead, alive])
    total = float(host.read().sum())
    alive.close()
    return total


main()
