# RUN: ok
# A batch of pinned buffers uploaded by a thread pool: each worker uploads, waits and
# returns the buffer; the caller takes every buffer back from its future (by index)
# before it reads any. Correct.
from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def push(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    return s.upload(host, to=dev).wait()


def main() -> None:
    s = nx.stream()
    devs = [nx.device_array(N, np.float32) for _ in range(3)]
    hosts = [nx.pinned_copy(np.full(N, i, np.float32)) for i in range(3)]
    with ThreadPoolExecutor(max_workers=3) as pool:
        futs: list[Future[Host]] = []
        for i in range(len(hosts)):
            futs.append(pool.submit(push, s, hosts[i], devs[i]))
        for i, fut in enumerate(futs):
            hosts[i] = fut.result()
    for h in hosts:
        print(float(h.read().sum()))
    with ThreadPoolExecutor(max_workers=1) as pool:
        for i in range(len(hosts)):
            fut1 = pool.submit(push, s, hosts[i], devs[i])
            hosts[i] = fut1.result()
    print(hosts[0].read()[0])
    for h in hosts:
        h.free()
    for d in devs:
        d.free()
    s.close()


main()
