# Returning or storing a transfer hands it on: not reported here.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def start(s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32]) -> nx.Transfer[Host]:
    host = nx.pinned_array(8, np.float32)
    up = s.upload(host, to=dev)
    return up


def start_many(s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32]) -> list[nx.Transfer[Host]]:
    ups = []
    for _ in range(2):
        host = nx.pinned_array(8, np.float32)
        t = s.upload(host, to=dev)
        ups.append(t)
    return ups


s = nx.stream()
dev = nx.device_array(8, np.float32)
start(s, dev).wait()
for t in start_many(s, dev):
    t.wait()
