# RUN: ok
# A worker thread object is built up front (as a pipeline wires its stages), the input
# buffer is filled, and only then is the thread started. Thread(...) runs nothing: the
# target owns the buffer from start() on. Correct at run time.
from __future__ import annotations

import threading

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 16


def upload_and_check(s: nx.Stream[nx.Lent], host: Host, dev: Dev, out: list[float]) -> None:
    back = s.upload(host, to=dev).wait()
    out.append(float(back.read().sum()))
    back.free()


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = nx.pinned_array(N, np.float32)
    sums: list[float] = []
    worker = threading.Thread(target=upload_and_check, args=(s, host, dev, sums), daemon=True)
    with host.write() as a:  # the thread is not started yet
        a[:] = 1.0
    worker.start()
    worker.join()
    assert sums == [float(N)]
    dev.free()
    s.close()


main()
