# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 74): early return skips the drain; make_report reads the newest slot's host buffer while its download is still in flight
# Planted bug: early return skips the drain; make_report reads the newest slot's host buffer while its download is still in flight
"""A release gate: evaluate a classifier batch by batch, stop once errors pass a budget.

Predictions are computed on the device and downloaded into a ring of three slots, so up
to three downloads are in flight while the host scores the oldest. When the error
budget is exceeded the loop stops enqueuing, the slots still in flight are drained
(and scored), and the report previews the newest batch's predictions.
"""

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
def predict(x: Any, offset: int, w: float, b: float, out: Any) -> None:
    r = cuda.grid(1)
    if r < out.size:
        out[r] = 1.0 if x[offset + r] * w + b > 0.0 else 0.0


@dataclass
class Slot:
    host: Host
    dev: Dev
    pending: nx.Transfer[Host] | None = None
    batch: int = -1


@dataclass
class Report:
    batches: int
    errors: int
    stopped_early: bool
    preview: NDArray[np.float32]


def consume(slot: Slot, labels: NDArray[np.float32], size: int) -> int:
    assert slot.pending is not None
    slot.host = slot.pending.wait()
    slot.pending = None
    lab = labels[slot.batch * size : (slot.batch + 1) * size]
    return int((slot.host.read() != lab).sum())


def make_report(slots: list[Slot], errors: int, stopped: bool) -> Report:
    newest = max(slots, key=lambda sl: sl.batch)
    return Report(newest.batch + 1, errors, stopped, newest.host.read()[:4].copy())


def evaluate(x: NDArray[np.float32], labels: NDArray[np.float32], size: int, budget: int) -> Report:
    s = nx.stream()
    x_dev = nx.device_array(x.size, np.float32)
    s.upload(nx.pinned_copy(x), to=x_dev).wait().free()
    slots = [Slot(nx.pinned_array(size, np.float32), nx.device_array(size, np.float32)) for _ in range(3)]
    errors, stopped = 0, False
    for i in range(x.size // size):
        slot = slots[i % len(slots)]
        if slot.pending is not None:
            errors += consume(slot, labels, size)
            if errors > budget:
                return make_report(slots, errors, True)  # E: use-after-transfer
        s.launch(predict, 1, 64, x_dev, i * size, 0.8, -0.1, slot.dev)
        slot.batch = i
        slot.pending = s.download(slot.dev, into=slot.host)
    for slot in slots:
        if slot.pending is not None:
            errors += consume(slot, labels, size)
    report = make_report(slots, errors, stopped)
    s.close()
    return report


def reference(x: NDArray[np.float32], labels: NDArray[np.float32], size: int, budget: int) -> tuple[int, int, bool]:
    wrong = ((x * np.float32(0.8) + np.float32(-0.1) > 0).astype(np.float32) != labels)
    per_batch = [int(wrong[i * size : (i + 1) * size].sum()) for i in range(x.size // size)]
    errors, enqueued = 0, 0
    for i in range(len(per_batch)):
        if i >= 3:
            errors += per_batch[i - 3]
            if errors > budget:
                return i, errors + sum(per_batch[i - 2 : i]), True
        enqueued = i + 1
    return enqueued, errors + sum(per_batch[max(0, enqueued - 3) : enqueued]), False


def main(size: int = 32, batches: int = 12, budget: int = 40) -> None:
    rng = np.random.default_rng(4)
    x = rng.normal(size=size * batches).astype(np.float32)
    labels = (x + rng.normal(0.0, 0.6, x.size) > 0).astype(np.float32)
    report = evaluate(x, labels, size, budget)
    want = reference(x, labels, size, budget)
    assert (report.batches, report.errors, report.stopped_early) == want, (report, want)
    assert report.stopped_early, "the budget should stop this evaluation"
    last = report.batches - 1
    expect = (x[last * size : last * size + 4] * np.float32(0.8) + np.float32(-0.1) > 0).astype(np.float32)
    assert np.array_equal(report.preview, expect)
    print(f"eval_gate: stopped after {report.batches} batches with {report.errors} errors")


if __name__ == "__main__":
    main()
