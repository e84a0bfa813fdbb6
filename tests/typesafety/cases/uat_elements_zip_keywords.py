# Elements moved through the loop variables of zip(..., strict=True) and enumerate(C,
# start=1) (a keyword that changes neither which elements come nor their order), in a
# comprehension and in a for loop, then read before any is taken back.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def comprehension(hosts: list[Host], devs: list[Dev], s: nx.Stream[nx.Owned]) -> list[Host]:
    ups = [s.upload(h, to=d) for h, d in zip(hosts, devs, strict=True)]
    sent = [float(h.read().sum()) for h in hosts]  # E: use-after-transfer "h" "an element of \"hosts\""
    print(sent)
    return [t.wait() for t in ups]


def numbered(hosts: list[Host], dev: Dev, s: nx.Stream[nx.Owned]) -> list[Host]:
    ups: list[nx.Transfer[Host]] = []
    for k, h in enumerate(hosts, start=1):
        print("sending", k)
        ups.append(s.upload(h, to=dev))
    first = hosts[0].read()  # E: use-after-transfer "hosts[0]" "the loop variable \"h\""
    print(first)
    return [t.wait() for t in ups]


def zipped_loop(hosts: list[Host], devs: list[Dev], s: nx.Stream[nx.Owned]) -> list[Host]:
    ups: list[nx.Transfer[Host]] = []
    for h, d in zip(hosts, devs, strict=True):
        ups.append(s.upload(h, to=d))
    for h in hosts:
        h.read()  # E: use-after-transfer "h" "hosts = [t.wait() for t in ups]"
    return [t.wait() for t in ups]


def main() -> None:
    s = nx.stream()
    hosts = [nx.pinned_array(N, np.float32) for _ in range(3)]
    devs = [nx.device_array(N, np.float32) for _ in range(3)]
    hosts = comprehension(hosts, devs, s)
    hosts = numbered(hosts, devs[0], s)
    hosts = zipped_loop(hosts, devs, s)
    s.close()


main()
