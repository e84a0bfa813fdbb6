# Error paths: the upload is retried on a fresh stream when the first one was closed
# (a refused call moves nothing), a failing download is handled, and a finally takes
# the buffer back on every path. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def send(
    host: Host, dev: nx.DeviceArray[nx.Owned, np.float32], s: nx.Stream[nx.Owned]
) -> tuple[Host, nx.Stream[nx.Owned]]:
    try:
        up = s.upload(host, to=dev)
    except nx.StreamClosedError:
        s = nx.stream()
        up = s.upload(host, to=dev)
    wrong = nx.pinned_array(dev.size + 1, np.float32)
    try:
        wrong = s.download(dev, into=wrong).wait()  # shape mismatch: ValueError
    except ValueError:
        pass
    finally:
        host = up.wait()
    return host, s


def main() -> float:
    s = nx.stream()
    s.close()
    host = nx.pinned_array(16, np.float32)
    dev = nx.device_array(16, np.float32)
    host, s = send(host, dev, s)
    try:
        with host.write() as a:
            a[:] = 1.0
    finally:
        s.close()
    return float(host.read().sum())


main()
