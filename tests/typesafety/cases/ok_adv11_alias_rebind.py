# RUN: ok
# finish() given an alias after the original name was rebound to a new transfer; a
# name rebound after finish(); a tuple swap of two transfers.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def finish(t: nx.Transfer[Host]) -> Host:
    return t.wait()


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    up = s.upload(nx.pinned_array(N, np.float32), to=dev)
    previous = up
    up = s.upload(nx.pinned_array(N, np.float32), to=dev)
    a = finish(previous)
    b = up.wait()
    up = s.upload(a, to=dev)
    a = finish(up)
    up = s.upload(b, to=dev)
    b = up.wait()
    x = s.upload(a, to=dev)
    y = s.upload(b, to=dev)
    a = finish(x)
    x, y = y, x
    b = x.wait()
    print(a.size + b.size, y.completed)
    s.close()


if __name__ == "__main__":
    main()
