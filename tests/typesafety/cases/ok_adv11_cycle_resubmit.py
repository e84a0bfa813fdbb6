# RUN: ok
# Helpers that complete each transfer and put a new one in its place (by index, by
# attribute, by a fresh list); the caller then completes the new ones once.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


@dataclass
class Slot:
    transfer: nx.Transfer[Host]
    rounds: int = 0


def cycle(ts: list[nx.Transfer[Host]], s: nx.Stream[nx.Owned], dev: Dev) -> None:
    for i, t in enumerate(ts):
        ts[i] = s.upload(t.wait(), to=dev)


def cycle_slots(slots: list[Slot], s: nx.Stream[nx.Owned], dev: Dev) -> None:
    for sl in slots:
        sl.transfer = s.upload(sl.transfer.wait(), to=dev)
        sl.rounds += 1


def cycle_whole(ts: list[nx.Transfer[Host]], s: nx.Stream[nx.Owned], dev: Dev) -> None:
    hosts = [t.wait() for t in ts]
    ts[:] = [s.upload(h, to=dev) for h in hosts]


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    ts = [s.upload(nx.pinned_array(N, np.float32), to=dev) for _ in range(3)]
    cycle(ts, s, dev)
    cycle_whole(ts, s, dev)
    hosts = [t.wait() for t in ts]
    slots = [Slot(s.upload(h, to=dev)) for h in hosts]
    cycle_slots(slots, s, dev)
    cycle_slots(slots, s, dev)
    hosts = [sl.transfer.wait() for sl in slots]
    print(len(hosts), [sl.rounds for sl in slots])
    s.close()


if __name__ == "__main__":
    main()
