# Chunked code with nx.split / nx.join: the parts are joined while their uploads are
# still in flight (the waits come after), and a part moved into an upload is read.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main(n: int = 64, k: int = 4) -> float:
    host = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    streams = [nx.stream() for _ in range(k)]
    hp, dp = nx.split(host, k), nx.split(dev, k)
    ups: list[nx.Transfer[Host]] = []
    for s, h, d in zip(streams, hp, dp):
        ups.append(s.upload(h, to=d))
    check = float(hp[0].read()[0])  # E: use-after-transfer "hp[0]"
    host = nx.join(hp)  # E: use-after-transfer "hp"
    hp = [t.wait() for t in ups]
    for s in streams:
        s.close()
    return check + float(host.read().sum())


main()
