# Chunked code with nx.split / nx.join: parts kept in lists, one stream per part, every
# upload waited before the parts are joined and the whole array is read. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main(n: int = 64, k: int = 4) -> float:
    host = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    with host.write() as a:
        a[:] = np.arange(n, dtype=np.float32)
    streams = [nx.stream() for _ in range(k)]
    hp, dp = nx.split(host, k), nx.split(dev, k)
    ups: list[nx.Transfer[Host]] = []
    for s, h, d in zip(streams, hp, dp):
        ups.append(s.upload(h, to=d))
    hp = [t.wait() for t in ups]
    host, dev = nx.join(hp), nx.join(dp)
    total = float(host.read().sum())
    first, rest = nx.split(host, bounds=[0, 8, n])
    t0 = streams[0].upload(first, to=nx.device_array(8, np.float32))
    total += float(rest.read()[0])
    first = t0.wait()
    host = nx.join([first, rest])
    for s in streams:
        s.close()
    return total + float(host.read()[-1])


main()
