# RUN: ok
# A counted loop keeps one upload in flight ahead of the chunk it uses: the prefetch is
# guarded by ``if k + 1 < n:``, false on the last iteration only, so the transfer waited
# at the top of each iteration is a new one every time (and the last one is waited once).
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def send(s: nx.Stream[nx.Owned], host: Host, dev: Dev) -> nx.Transfer[Host]:
    return s.upload(host, to=dev)


def stream_chunks(n: int) -> int:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    hosts = [nx.pinned_array(8, np.float32) for _ in range(n)]
    pending = send(s, hosts[0], dev)
    seen = 0
    for k in range(len(hosts)):
        hosts[k] = pending.wait()
        if k + 1 < len(hosts):
            pending = send(s, hosts[k + 1], dev)
        seen += 1
    if not pending.completed:  # (no chunks at all: the loop never ran)
        hosts[0] = pending.wait()
    for i in range(n):
        if n - 1 > i:  # the same test, the other way round
            seen += 0
    for h in hosts:
        h.free()
    dev.free()
    s.close()
    return seen


def enumerate_chunks(bufs: list[Host], s: nx.Stream[nx.Owned], dev: Dev) -> None:
    up = send(s, bufs[0], dev)
    for k, _ in enumerate(bufs):
        bufs[k] = up.wait()
        if k != len(bufs) - 1:
            up = send(s, bufs[k + 1], dev)
    if not up.completed:
        bufs[0] = up.wait()


def main() -> None:
    assert stream_chunks(3) == 3
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    bufs = [nx.pinned_array(8, np.float32) for _ in range(3)]
    enumerate_chunks(bufs, s, dev)
    for b in bufs:
        b.free()
    dev.free()
    s.close()


main()
