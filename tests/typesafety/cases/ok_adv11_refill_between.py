# RUN: ok
# collect() completes every element; the list is refilled (clear+append, slice
# assignment, rebinding) before each further collect().
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def collect(ts: list[nx.Transfer[Host]]) -> list[Host]:
    out: list[Host] = []
    for t in ts:
        out.append(t.wait())
    return out


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    hosts = [nx.pinned_array(N, np.float32) for _ in range(3)]
    ts = [s.upload(h, to=dev) for h in hosts]
    hosts = collect(ts)
    ts.clear()
    for h in hosts:
        ts.append(s.upload(h, to=dev))
    hosts = collect(ts)
    ts[:] = [s.upload(h, to=dev) for h in hosts]
    hosts = collect(ts)
    ts = [s.upload(h, to=dev) for h in hosts]
    hosts = collect(ts)
    for i, h in enumerate(hosts):
        ts[i] = s.upload(h, to=dev)
    hosts = collect(ts)
    print(len(hosts))
    s.close()


if __name__ == "__main__":
    main()
