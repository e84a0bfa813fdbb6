# RUN: ok
# Keyword arguments out of order: complete() waits only its "first" parameter.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 16


def complete(first: nx.Transfer[Host], second: nx.Transfer[Host]) -> Host:
    print("completing", first.label, "before", second.label)
    return first.wait()


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    t1 = s.upload(nx.pinned_array(N, np.float32), to=dev)
    t2 = s.upload(nx.pinned_array(N, np.float32), to=dev)
    h2 = complete(second=t1, first=t2)
    h1 = t1.wait()
    t3 = s.upload(h1, to=dev)
    t4 = s.upload(h2, to=dev)
    h4 = complete(t4, t3)
    h3 = t3.wait()
    print(h3.size + h4.size)
    s.close()


if __name__ == "__main__":
    main()
