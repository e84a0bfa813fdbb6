# RUN: ok
# A pool of Slot dataclasses (pinned buffer, device buffer, transfer in flight). Jobs are
# dealt round-robin; a slot is reclaimed before reuse; cancel_tail() at shutdown completes
# the transfer of the slot whose result is no longer wanted and discards the result.
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


@dataclass
class Slot:
    buf: Host
    dev: Dev
    transfer: nx.Transfer[Host] | None = None
    job: int = -1


def reclaim(slot: Slot, results: dict[int, float]) -> None:
    if slot.transfer is not None:
        slot.buf = slot.transfer.wait()
        slot.transfer = None
        results[slot.job] = float(slot.buf.read().sum())


def run(slot: Slot, s: nx.Stream[nx.Lent], job: int, n: int) -> None:
    with slot.buf.write() as a:
        a[:] = float(job)
    up = s.upload(slot.buf, to=slot.dev)
    s.launch(scale, 1, 64, slot.dev, 3.0)
    slot.transfer = s.download(slot.dev, into=up)
    slot.job = job


def cancel_tail(slot: Slot) -> None:
    if slot.transfer is not None:
        slot.buf = slot.transfer.wait()
        slot.transfer = None


def main(n: int = 64, jobs: int = 5) -> dict[int, float]:
    s = nx.stream()
    slots = [Slot(nx.pinned_array(n, np.float32), nx.device_array(n, np.float32)) for _ in range(3)]
    results: dict[int, float] = {}
    for job in range(jobs):
        slot = slots[job % len(slots)]
        reclaim(slot, results)
        run(slot, s, job, n)
    last = slots[(jobs - 1) % len(slots)]
    for slot in slots:
        if slot is not last:
            reclaim(slot, results)
    cancel_tail(last)
    assert results == {k: 3.0 * k * n for k in range(jobs - 1)}, results
    return results


if __name__ == "__main__":
    main()
