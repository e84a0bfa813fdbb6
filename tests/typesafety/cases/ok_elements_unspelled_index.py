# Indices the path syntax cannot spell, read where no element can be moved: after the
# elements were taken back (a restore loop, a store into the container), their
# metadata, formatting the element itself, a slice (a new list, not a read), and a
# container whose loop moved nothing of it.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def restored(parts: list[Host], devs: list[Dev], s: nx.Stream[nx.Owned]) -> float:
    ups = [s.upload(p, to=d) for p, d in zip(parts, devs)]
    print(parts[len(parts) - 1].shape, parts[min(0, 1)].size)  # metadata: no use
    print(parts[len(parts) - 1])  # formatting a handle reads no memory
    rest = parts[1:]  # a slice is a new list
    print(len(rest))
    for i, t in enumerate(ups):
        parts[i] = t.wait()
    return float(parts[(0 + 1) % len(parts)].read()[1])


def stored(hosts: list[Host], dev: Dev, s: nx.Stream[nx.Owned]) -> float:
    ups = [s.upload(h, to=dev) for h in hosts]
    hosts[:] = [t.wait() for t in ups]
    return float(hosts[len(hosts) - 1].read().sum())


def other_container(hosts: list[Host], spare: list[Host], dev: Dev, s: nx.Stream[nx.Owned]) -> float:
    ups = [s.upload(h, to=dev) for h in hosts]
    total = float(spare[len(spare) - 1].read().sum())  # spare's elements were not moved
    hosts = [t.wait() for t in ups]
    return total + float(hosts[0].read().sum())


def main() -> None:
    s = nx.stream()
    parts = [nx.pinned_array(N, np.float32) for _ in range(3)]
    devs = [nx.device_array(N, np.float32) for _ in range(3)]
    total = restored(parts, devs, s)
    total += stored(parts, devs[0], s)
    total += other_container(parts, [nx.pinned_array(N, np.float32)], devs[0], s)
    s.close()
    print(total)


main()
