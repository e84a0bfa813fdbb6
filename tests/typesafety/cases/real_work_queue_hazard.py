# A work-queue class whose push() consumes the caller's buffer (nx.Consumed): the
# caller keeps writing its buffer after pushing it, and pushes it a second time.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from collections import deque

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class UploadQueue:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.inflight: deque[nx.Transfer[Host]] = deque()

    def push(self, buf: nx.Consumed[Host]) -> None:
        self.inflight.append(self.s.upload(buf, to=self.dev))

    def pop(self) -> Host:
        return self.inflight.popleft().wait()

    def close(self) -> None:
        while self.inflight:
            self.inflight.popleft().wait()
        self.s.close()


def main() -> float:
    q = UploadQueue(16)
    a = nx.pinned_array(16, np.float32)
    total = 0.0
    for step in range(3):
        with a.write() as va:  # E: use-after-transfer "a" "may be used"
            va[:] = step
        q.push(a)  # E: use-after-transfer "a" "earlier loop iteration"
        total += step
    q.push(a)  # E: use-after-transfer "a" "push()"
    q.close()
    return total


main()
