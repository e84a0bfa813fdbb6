# Fail-over between streams: a stream of a pool may have been closed by a watchdog;
# the sender walks the pool with `for ... else`, retrying the same buffer on the next
# stream after nx.StreamClosedError (a refused call moves nothing), and a `while` loop
# with a walrus drains the queue of buffers to send.
# RUN: ok
from __future__ import annotations

from collections import deque

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def send_all(queue: deque[Host], streams: list[nx.Stream[nx.Owned]], dev: nx.DeviceArray[nx.Owned, np.float32]) -> list[float]:
    sent: list[float] = []
    while (buf := queue.popleft() if queue else None) is not None:
        for s in streams:
            try:
                up = s.upload(buf, to=dev)
            except nx.StreamClosedError:
                continue
            buf = up.wait()
            break
        else:
            raise RuntimeError(f"no open stream for {buf.label}")
        sent.append(float(buf.read().sum()))
        buf.free()
    return sent


def main(n: int = 8) -> list[float]:
    streams = [nx.stream() for _ in range(3)]
    streams[0].close()
    dev = nx.device_array(n, np.float32)
    queue = deque(nx.pinned_copy(np.full(n, float(v), np.float32)) for v in range(3))
    got = send_all(queue, streams, dev)
    for s in streams[1:]:
        s.close()
    assert got == [0.0, 8.0, 16.0], got
    return got


main()
