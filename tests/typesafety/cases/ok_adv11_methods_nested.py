# RUN: ok
# A method that completes the transfer it is given, a nested helper, and a static
# method: each called once per transfer, on fresh transfers each time.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


class Sink:
    def __init__(self) -> None:
        self.total = 0.0

    def take(self, t: nx.Transfer[Host]) -> Host:
        h = t.wait()
        self.total += float(h.read().sum())
        return h

    @staticmethod
    def drop(t: nx.Transfer[Host]) -> None:
        t.wait().free()


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    sink = Sink()

    def land(t: nx.Transfer[Host]) -> Host:
        return t.wait()

    h = nx.pinned_array(N, np.float32)
    t = s.download(dev, into=h)
    h = sink.take(t)
    t = s.download(dev, into=h)
    h = land(t)
    t = s.download(dev, into=h)
    h = sink.take(t)
    t2 = s.download(dev, into=nx.pinned_array(N, np.float32))
    Sink.drop(t2)
    t = s.upload(h, to=dev)
    if t.done():
        h = land(t)
    else:
        h = sink.take(t)
    print(sink.total, h.size)
    s.close()


if __name__ == "__main__":
    main()
