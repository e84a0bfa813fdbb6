# A typed queue of TypedDict work items processed by a worker (see
# user5_typed_queue_ok.py). The bug, kind "use after upload before wait, and a transfer
# never waited": the chained download is given the item's buffer, which the upload still
# owns, instead of the upload transfer; the upload itself is then never completed.
# RUN: raises UseAfterTransferError
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
        up = s.upload(item["host"], to=item["dev"])  # E: unfinished-transfer "up" "left unfinished" # E: unfinished-transfer "up" "dropped"
        s.launch(scale, 1, 32, item["dev"], item["scale"])
        item["pending"] = s.download(item["dev"], into=item["host"])  # E: use-after-transfer "host"
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
