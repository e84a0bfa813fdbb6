# RUN: warns ResourceWarning anywhere
# Planted bug: the stream is idle, but the pending prefetch transfer is never completed and is dropped with the generator
"""Evaluation over a validation set through a double-buffered prefetching generator.

``prefetch()`` is a generator: while the caller scores batch ``i`` on the device, the
upload of batch ``i + 1`` is already enqueued from the second pinned staging buffer.
Evaluation stops early once the running score passes a budget; the generator is closed
through ``contextlib.closing`` and its ``finally`` block takes back the staging buffer
of the prefetch that was still in flight.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]

FEATURES = 8


@cuda.jit
def row_scores(batch: Any, out: Any) -> None:
    """out[r] = sum of the features of row r (a stand-in for a model head)."""
    r = cuda.grid(1)
    if r < out.size:
        acc = 0.0
        for j in range(batch.shape[1]):
            acc += batch[r, j]
        out[r] = acc


def prefetch(
    dataset: NDArray[np.float32], batch: int, s: nx.Stream[nx.Lent]
) -> Generator[tuple[int, Dev], None, None]:
    """Yield ``(index, device batch)``; the next batch's upload overlaps the caller."""
    n_batches = dataset.shape[0] // batch
    spare: list[Host] = [nx.pinned_array((batch, FEATURES), np.float32) for _ in range(2)]
    devs: list[Dev] = [nx.device_array((batch, FEATURES), np.float32) for _ in range(2)]

    def start(i: int, host: Host) -> nx.Transfer[Host]:
        with host.write() as a:
            a[:] = dataset[i * batch : (i + 1) * batch]
        return s.upload(host, to=devs[i % 2])

    pending: nx.Transfer[Host] | None = start(0, spare.pop())  # E: unfinished-transfer
    try:
        for i in range(n_batches):
            current = pending
            assert current is not None
            pending = None
            if i + 1 < n_batches:
                pending = start(i + 1, spare.pop())
            spare.append(current.wait())  # batch i is on the device; its staging is free
            yield i, devs[i % 2]
    finally:
        if pending is not None:
            s.synchronize()
        for buf in spare:
            buf.free()


def reference(dataset: NDArray[np.float32], batch: int, budget: float) -> tuple[int, float]:
    total, seen = 0.0, 0
    for i in range(dataset.shape[0] // batch):
        total += float(dataset[i * batch : (i + 1) * batch].sum(dtype=np.float64))
        seen += 1
        if total >= budget:
            break
    return seen, total


def evaluate(dataset: NDArray[np.float32], batch: int, budget: float) -> tuple[int, float]:
    s = nx.stream()
    scores = nx.device_array(batch, np.float32)
    out = nx.pinned_array(batch, np.float32)
    total, seen = 0.0, 0
    with s.lend() as ls:
        with contextlib.closing(prefetch(dataset, batch, ls)) as batches:
            for _, dev in batches:
                ls.launch(row_scores, 1, 64, dev, scores)
                out = ls.download(scores, into=out).wait()
                total += float(out.read().sum(dtype=np.float64))
                seen += 1
                if total >= budget:
                    break  # good enough: stop the evaluation early
    out.free()
    s.close()
    return seen, total


def main() -> None:
    rng = np.random.default_rng(3)
    dataset = rng.integers(0, 4, size=(96, FEATURES)).astype(np.float32)
    seen, total = evaluate(dataset, 16, budget=600.0)
    want_seen, want_total = reference(dataset, 16, 600.0)
    assert seen == want_seen and total == want_total, (seen, total, want_seen, want_total)
    assert seen < 6, "the budget should stop the evaluation early"
    print(f"prefetch_generator: {seen} batches scored, total {total}")


if __name__ == "__main__":
    main()
