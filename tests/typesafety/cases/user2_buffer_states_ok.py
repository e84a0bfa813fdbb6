# A state machine of buffers: each slot is IDLE, UPLOADING or READY; start() fills and
# uploads a slot, poll() moves it to READY once its upload is done, and the main loop
# launches on READY slots. Correct: describe() (the logging helper) reads the host
# buffer only of slots that are not UPLOADING.
# RUN: ok
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def double(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2.0


class State(enum.Enum):
    IDLE = "idle"
    UPLOADING = "uploading"
    READY = "ready"


@dataclass
class Slot:
    host: Host
    dev: Dev
    state: State = State.IDLE
    up: nx.Transfer[Host] | None = None


def start(slot: Slot, s: nx.Stream[nx.Owned], value: float) -> None:
    with slot.host.write() as a:
        a[:] = value
    slot.up = s.upload(slot.host, to=slot.dev)
    slot.state = State.UPLOADING


def poll(slot: Slot) -> None:
    if slot.state is State.UPLOADING and slot.up is not None and slot.up.done():
        slot.host = slot.up.wait()
        slot.up = None
        slot.state = State.READY


def describe(slot: Slot) -> str:
    first = "-" if slot.state is State.UPLOADING else f"{slot.host.read()[0]:.1f}"
    return f"{slot.state.value}:{first}"


def main() -> None:
    s = nx.stream()
    slots = [Slot(nx.pinned_array(N, np.float32), nx.device_array(N, np.float32)) for _ in range(3)]
    log: list[str] = []
    for i, slot in enumerate(slots):
        start(slot, s, float(i + 1))
        log.append(describe(slot))
    while any(slot.state is not State.READY for slot in slots):
        for slot in slots:
            poll(slot)
    totals = []
    for slot in slots:
        s.launch(double, 1, N, slot.dev)
        slot.host = s.download(slot.dev, into=slot.host).wait()
        totals.append(float(slot.host.read().sum()))
        log.append(describe(slot))
    s.close()
    assert totals == [2.0 * (i + 1) * N for i in range(3)], totals
    print(log)


main()
