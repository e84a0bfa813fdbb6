# RUN: ok
# Loops over a ring of slots that take slot k back before they read it, read it only
# under a test, or read another element: no report.
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def take_back_first(count: int) -> None:
    s = nx.stream()
    bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
    devs = [nx.device_array(8, np.float32) for _ in range(2)]
    inflight: list[nx.Transfer[Host] | None] = [None, None]
    for i in range(count):
        k = i % 2
        pending = inflight[k]
        if pending is not None:
            bufs[k] = pending.wait()
        with bufs[k].write() as v:
            v[:] = float(i)
        inflight[k] = s.upload(bufs[k], to=devs[k])
    for k, t in enumerate(inflight):
        if t is not None:
            bufs[k] = t.wait()
    s.close()


def guarded_read(count: int) -> None:
    s = nx.stream()
    bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
    dev = nx.device_array(8, np.float32)
    inflight: list[nx.Transfer[Host] | None] = [None, None]
    for i in range(count):
        k = i % 2
        if inflight[k] is None:
            print(bufs[k].read()[0])  # a fresh slot: never moved
        t = inflight[k]
        if t is not None:
            bufs[k] = t.wait()
        inflight[k] = s.download(dev, into=bufs[k])
    for k, t in enumerate(inflight):
        if t is not None:
            bufs[k] = t.wait()
    s.close()


def read_then_start(count: int) -> None:
    s = nx.stream()
    bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
    dev = nx.device_array(8, np.float32)
    for i in range(count):
        k = i % 2
        print(bufs[k].read()[0], bufs[k].shape)
        up = s.upload(bufs[k], to=dev)  # started after the read, taken back at once
        bufs[k] = up.wait()
    s.close()


if __name__ == "__main__":
    take_back_first(5)
    guarded_read(5)
    read_then_start(5)
