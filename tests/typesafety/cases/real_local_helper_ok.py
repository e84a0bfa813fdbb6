# A local helper that closes over the stream and device array: a nested def with an
# nx.Consumed parameter; only metadata of the moved buffer is read before it comes
# back. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)

    def send(buf: nx.Consumed[Host]) -> nx.Transfer[Host]:
        return s.upload(buf, to=dev)

    host = nx.pinned_array(16, np.float32)
    total = 0.0
    for i in range(3):
        with host.write() as a:
            a[:] = i
        t = send(host)
        total += host.nbytes + host.shape[0]
        host = t.wait()
        total += float(host.read()[0])
    s.close()
    return total


main()
