# A ring of k slots, each a NamedTuple of a pinned buffer, a device buffer and a stream;
# frame i goes to slot i % k. Before a slot is reused its previous download is taken
# back (the ring keeps one pending transfer per slot), and the slot is rebuilt with
# _replace() around the returned buffer.
# RUN: ok
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Slot(NamedTuple):
    host: Host
    dev: nx.DeviceArray[nx.Owned, np.float32]
    stream: nx.Stream[nx.Owned]


@cuda.jit
def render(frame: Any, t: float) -> None:
    i = cuda.grid(1)
    if i < frame.size:
        frame[i] = t + i


def render_frames(frames: int, k: int = 3, n: int = 8) -> list[float]:
    slots = [Slot(nx.pinned_array(n, np.float32), nx.device_array(n, np.float32), nx.stream()) for _ in range(k)]
    pending: list[nx.Transfer[Host] | None] = [None] * k
    totals: list[float] = []
    for i in range(frames):
        j = i % k
        t = pending[j]
        if t is not None:
            slots[j] = slots[j]._replace(host=t.wait())
            pending[j] = None
            totals.append(float(slots[j].host.read().sum()))
        slot = slots[j]
        slot.stream.launch(render, 1, n, slot.dev, float(i))
        pending[j] = slot.stream.download(slot.dev, into=slot.host)
    for j in range(k):
        t = pending[j]
        if t is not None:
            slots[j] = slots[j]._replace(host=t.wait())
            totals.append(float(slots[j].host.read().sum()))
    for slot in slots:
        slot.stream.close()
    return totals


def main() -> list[float]:
    totals = render_frames(5)
    assert sorted(totals) == sorted(float(8 * i + 28) for i in range(5)), totals
    return totals


main()
