# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 66): a retried item is requeued with its old, already completed transfer
# Planted bug: a retried item is requeued with its old, already completed transfer
"""A batched evaluator: each batch is scored on the device and the scores come back
through a pinned pool buffer. In-flight batches are `InFlight` dataclasses in a queue.

A batch whose scores contain NaN (a transient fault: the kernel is told to poison the
first attempt of one batch) is scored again: a new download is queued for it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def score(out: Any, batch: int, poison: int) -> None:
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        if poison != 0 and i == 7:
            out[i] = math_nan()
        else:
            out[i] = batch * 10.0 + (i % 5)


@cuda.jit(device=True)
def math_nan() -> float:
    return float("nan")


@dataclass
class InFlight:
    batch: int
    down: nx.Transfer[Host]
    attempt: int = 0


class Evaluator:
    def __init__(self, n: int, flaky_batch: int, buffers: int = 3) -> None:
        self.stream = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.pool: nx.PinnedPool[np.float32] = nx.PinnedPool(buffers, n, np.float32)
        self.queue: deque[InFlight] = deque()
        self.flaky_batch = flaky_batch
        self.scores: dict[int, float] = {}
        self.retries = 0

    def _score(self, batch: int, attempt: int) -> nx.Transfer[Host]:
        poison = 1 if (batch == self.flaky_batch and attempt == 0) else 0
        self.stream.launch(score, 2, 64, self.dev, batch, poison)
        return self.stream.download(self.dev, into=self.pool.take())

    def submit(self, batch: int) -> None:
        self.queue.append(InFlight(batch, self._score(batch, 0)))

    def collect_one(self) -> None:
        item = self.queue.popleft()
        buf = item.down.wait()  # E: transfer-completed-twice
        values = buf.read()
        if np.isnan(values).any() and item.attempt < 2:
            self.retries += 1
            self.pool.give(buf)
            item.attempt += 1
            self.queue.append(item)
            return
        self.scores[item.batch] = float(values.mean(dtype=np.float64))
        self.pool.give(buf)

    def run(self, batches: int) -> dict[int, float]:
        for b in range(batches):
            if len(self.queue) == 2:
                self.collect_one()
            self.submit(b)
        while self.queue:
            self.collect_one()
        return self.scores

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    n, batches = 256, 5
    ev = Evaluator(n, flaky_batch=2)
    scores = ev.run(batches)
    ev.close()
    assert ev.retries == 1, ev.retries
    assert sorted(scores) == list(range(batches))
    for b, v in scores.items():
        expect = b * 10.0 + float(np.mean(np.arange(n) % 5))
        assert abs(v - expect) < 1e-4, (b, v, expect)
    print("eval_retry: ok", scores)


if __name__ == "__main__":
    main()
