# RUN: ok
# Helpers that complete only some elements (a slice, a filtered comprehension, a range
# from 1, a bounded while); the caller completes the rest itself.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def tail(ts: list[nx.Transfer[Host]]) -> list[Host]:
    out: list[Host] = []
    for t in ts[1:]:
        out.append(t.wait())
    return out


def ready(ts: list[nx.Transfer[Host]], skip: str) -> list[Host]:
    return [t.wait() for t in ts if t.label != skip]


def from_one(ts: list[nx.Transfer[Host]]) -> list[Host]:
    out: list[Host] = []
    for i in range(1, len(ts)):
        out.append(ts[i].wait())
    return out


def first_half(ts: list[nx.Transfer[Host]]) -> list[Host]:
    out: list[Host] = []
    i = 0
    while i < len(ts) // 2:
        out.append(ts[i].wait())
        i += 1
    return out


def round_(s: nx.Stream[nx.Owned], dev: Dev, hosts: list[Host], how: int) -> list[Host]:
    ts = [s.upload(h, to=dev) for h in hosts]
    if how == 0:
        rest = tail(ts)
        return [ts[0].wait()] + rest
    if how == 1:
        rest = ready(ts, ts[-1].label)
        return rest + [ts[-1].wait()]
    if how == 2:
        rest = from_one(ts)
        return [ts[0].wait()] + rest
    got = first_half(ts)
    return got + [t.wait() for t in ts[len(ts) // 2 :]]


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    hosts = [nx.pinned_array(N, np.float32) for _ in range(4)]
    for how in range(4):
        hosts = round_(s, dev, hosts, how)
    print(len(hosts))
    s.close()


if __name__ == "__main__":
    main()
