# An element read by an index the path syntax cannot spell (a call in it, a subscript,
# an attribute of a call) after a loop moved every element: whichever element it is,
# it is moved. Also through formatting of what is read from it, and with the loop that
# only moved some elements ("may").
# RUN: raises UseAfterTransferError
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def neighbour(parts: list[Host], devs: list[Dev], s: nx.Stream[nx.Owned]) -> list[Host]:
    downs: list[nx.Transfer[Host]] = []
    for p, d in zip(parts, devs):
        up = s.upload(p, to=d)
        downs.append(s.download(d, into=up))
    home: list[Host] = []
    for i, t in enumerate(downs):
        part = t.wait()
        edge = parts[(i + 1) % len(parts)].read()[1]  # E: use-after-transfer "\"parts[...]\" (an element of \"parts\") is used"
        print(edge)
        home.append(part)
    return home


def by_table(hosts: list[Host], order: list[int], dev: Dev, s: nx.Stream[nx.Owned]) -> list[Host]:
    ups = [s.upload(h, to=dev) for h in hosts]
    print(f"{hosts[order[0]].read()}")  # E: use-after-transfer "hosts[...]"
    with hosts[min(order)].write() as a:  # E: use-after-transfer "hosts[...]"
        a[:] = 0.0
    return [t.wait() for t in ups]


def some(hosts: list[Host], dev: Dev, s: nx.Stream[nx.Owned]) -> list[Host]:
    ups: list[nx.Transfer[Host]] = []
    for h in hosts:
        if h.size > 4:
            ups.append(s.upload(h, to=dev))
    hosts[len(hosts) - 1].read()  # E: use-after-transfer "may be used"
    return [t.wait() for t in ups]


def main() -> None:
    s = nx.stream()
    parts = [nx.pinned_array(N, np.float32) for _ in range(3)]
    devs = [nx.device_array(N, np.float32) for _ in range(3)]
    parts = neighbour(parts, devs, s)
    s.close()


main()
