# zip(..., strict=True) and enumerate(C, start=1) loops that move the elements, each
# followed by what puts them back before they are read: a restore loop by index, a
# comprehension of the waits, a store per element, the container handed to a function
# that takes them back, metadata only.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def restore_by_index(hosts: list[Host], devs: list[Dev], s: nx.Stream[nx.Owned]) -> float:
    ups = [s.upload(h, to=d) for h, d in zip(hosts, devs, strict=True)]
    print(len(hosts), hosts[0].shape, hosts[-1].size)  # metadata: no use
    for i, t in enumerate(ups, start=0):
        hosts[i] = t.wait()
    return sum(float(h.read().sum()) for h in hosts)


def restore_by_comprehension(hosts: list[Host], dev: Dev, s: nx.Stream[nx.Owned]) -> list[Host]:
    ups: list[nx.Transfer[Host]] = []
    for k, h in enumerate(hosts, start=1):
        print("sending", k)
        ups.append(s.upload(h, to=dev))
    hosts = [t.wait() for t in ups]
    print(float(hosts[0].read().sum()))
    return hosts


def store_each(hosts: list[Host], devs: list[Dev], s: nx.Stream[nx.Owned]) -> float:
    for i, (h, d) in enumerate(zip(hosts, devs, strict=True), start=0):
        hosts[i] = s.upload(h, to=d).wait()  # moved and put back in the same iteration
    return float(hosts[1].read().sum())


def take_back(hosts: list[Host], ups: list[nx.Transfer[Host]]) -> None:
    for i, t in enumerate(ups):
        hosts[i] = t.wait()


def handed_on(hosts: list[Host], devs: list[Dev], s: nx.Stream[nx.Owned]) -> float:
    ups = [s.upload(h, to=d) for h, d in zip(hosts, devs, strict=True)]
    take_back(hosts, ups)  # a list[Host] parameter: the callee may put them back
    return float(hosts[2].read().sum())


def main() -> None:
    s = nx.stream()
    hosts = [nx.pinned_array(N, np.float32) for _ in range(3)]
    devs = [nx.device_array(N, np.float32) for _ in range(3)]
    total = restore_by_index(hosts, devs, s)
    hosts = restore_by_comprehension(hosts, devs[0], s)
    total += store_each(hosts, devs, s)
    total += handed_on(hosts, devs, s)
    s.close()
    print(total)


main()
