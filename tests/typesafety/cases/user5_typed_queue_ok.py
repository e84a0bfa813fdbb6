# A typed queue of work items (a TypedDict per item: id, pinned host buffer, device
# buffer, scale, pending transfer) processed by a worker function: it uploads the item,
# scales it on the device and chains the download into the same pinned buffer (the
# download takes the buffer over from the upload), storing the transfer in the item. A
# collector function takes every buffer back and records the results.
# RUN: ok
from __future__ import annotations

from collections import deque
from typing import Any, TypedDict

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, k: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= k


class WorkItem(TypedDict):
    id: int
    host: Host
    dev: Dev
    scale: float
    pending: nx.Transfer[Host] | None


def make_item(i: int, n: int) -> WorkItem:
    host = nx.pinned_array(n, np.float32)
    with host.write() as a:
        a[:] = float(i + 1)
    return {"id": i, "host": host, "dev": nx.device_array(n, np.float32), "scale": 0.5 * i, "pending": None}


def worker(s: nx.Stream[nx.Lent], queue: deque[WorkItem], done: list[WorkItem]) -> None:
    while queue:
        item = queue.popleft()
        up = s.upload(item["host"], to=item["dev"])
        s.launch(scale, 1, 32, item["dev"], item["scale"])
        item["pending"] = s.download(item["dev"], into=up)
        done.append(item)


def collect(done: list[WorkItem]) -> dict[int, float]:
    results: dict[int, float] = {}
    for item in done:
        t = item["pending"]
        if t is not None:
            item["host"] = t.wait()
            item["pending"] = None
        results[item["id"]] = float(item["host"].read().sum())
    return results


if __name__ == "__main__":
    s = nx.stream()
    queue: deque[WorkItem] = deque(make_item(i, 32) for i in range(4))
    done: list[WorkItem] = []
    worker(s, queue, done)
    results = collect(done)
    s.close()
    assert results == {i: 32 * (i + 1) * 0.5 * i for i in range(4)}, results
    print("typed queue ok")
