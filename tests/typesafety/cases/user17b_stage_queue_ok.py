# RUN: ok
"""Two pipeline stages joined by queues: GPU normalisation, then a CPU consumer thread.

Stage 1 (the main thread) fills one pinned staging buffer per raw batch, uploads it,
normalises on the device and downloads into an output buffer taken from ``free_q``;
the download itself goes on ``work_q``. Stage 2 (a thread) completes each download,
reduces it and hands the buffer back on ``free_q``, which bounds the batches in flight.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
WorkItem = tuple[int, nx.Transfer[Host]] | None


@cuda.jit
def standardize(x: Any, mu: float, inv_sigma: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        x[i] = (x[i] - mu) * inv_sigma


class GpuNormalizer:
    """Stage 1: every raw batch goes up, is standardised, and comes down into a free buffer."""

    def __init__(self, batch: int, work_q: queue.Queue[WorkItem], free_q: queue.Queue[Host]) -> None:
        self.s = nx.stream()
        self.staging = nx.pinned_array(batch, np.float32)
        self.dev = nx.device_array(batch, np.float32)
        self.work_q, self.free_q = work_q, free_q
        self.raw_max: list[float] = []

    def submit(self, step: int, raw: NDArray[np.float32], mu: float, inv_sigma: float) -> None:
        with self.staging.write() as a:
            a[:] = raw
        up = self.s.upload(self.staging, to=self.dev)
        self.s.launch(standardize, 1, 64, self.dev, mu, inv_sigma)
        out = self.free_q.get()  # blocks while every output buffer is with stage 2
        self.work_q.put((step, self.s.download(self.dev, into=out)))
        self.staging = up.wait()
        self._record_stats()

    def _record_stats(self) -> None:
        self.raw_max.append(float(self.staging.read().max()))

    def close(self) -> None:
        self.staging.free()
        self.s.close()


def consumer(work_q: queue.Queue[WorkItem], free_q: queue.Queue[Host], sums: dict[int, float]) -> None:
    while (item := work_q.get()) is not None:
        step, down = item
        out = down.wait()
        sums[step] = float(out.read().astype(np.float64).sum())
        free_q.put(out)


def main(steps: int = 8, batch: int = 96) -> None:
    rng = np.random.default_rng(21)
    raws = [rng.normal(3.0, 2.0, batch).astype(np.float32) for _ in range(steps)]
    work_q: queue.Queue[WorkItem] = queue.Queue()
    free_q: queue.Queue[Host] = queue.Queue()
    for _ in range(2):
        free_q.put(nx.pinned_array(batch, np.float32))
    sums: dict[int, float] = {}
    stage1 = GpuNormalizer(batch, work_q, free_q)
    thread = threading.Thread(target=consumer, args=(work_q, free_q, sums), name="stage2")
    thread.start()
    try:
        for step, raw in enumerate(raws):
            stage1.submit(step, raw, 3.0, 0.5)
    finally:
        work_q.put(None)
        thread.join()
    while not free_q.empty():
        free_q.get().free()
    stage1.close()

    for step, raw in enumerate(raws):
        z = ((raw - np.float32(3.0)) * np.float32(0.5)).astype(np.float64)
        assert abs(sums[step] - float(z.sum())) < 1e-4, (step, sums[step], float(z.sum()))
    assert stage1.raw_max == [float(r.max()) for r in raws]
    print(f"stage_queue: {steps} batches through two stages")


if __name__ == "__main__":
    main()
