# A background writer thread: the main loop enqueues (name, download) pairs on a
# queue.Queue, the writer waits each download and appends the result to a log; a
# `None` ends it. Debug tensors are waited too but not logged.
# RUN: ok
from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def fill(a: Any, value: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = value


def writer(jobs: queue.Queue[tuple[str, nx.Transfer[Host]] | None], log: list[str]) -> None:
    while True:
        item = jobs.get()
        if item is None:
            return
        name, down = item
        out = down.wait()  # this download's own event
        if name.startswith("debug/"):
            continue
        log.append(f"{name}: {float(out.read().sum()):.1f}")


def main(n: int = 16) -> None:
    s = nx.stream()
    jobs: queue.Queue[tuple[str, nx.Transfer[Host]] | None] = queue.Queue()
    log: list[str] = []
    thread = threading.Thread(target=writer, args=(jobs, log))
    thread.start()
    names = ["loss", "debug/acts", "grad"]
    devs = [nx.device_array(n, np.float32) for _ in names]
    for k, (name, dev) in enumerate(zip(names, devs, strict=True)):
        s.launch(fill, 1, 32, dev, float(k))
        jobs.put((name, s.download(dev, into=nx.pinned_array(n, np.float32))))
    jobs.put(None)
    thread.join()
    s.close()
    assert log == ["loss: 0.0", f"grad: {2.0 * n:.1f}"], log


if __name__ == "__main__":
    main()
