# RUN: raises BorrowError via-call
# XFAIL: miss (line 74): the bucket calls the _send() callback at once while offer() still holds the frame's lend, and _send() moves the frame; a callback run by another object inside the lend is not followed
# Planted bug: offer() asks the bucket to admit the send while self.frame is still lent, and the bucket calls _send() at once, which moves the lent frame into an upload.
"""A token-bucket rate limiter in front of an uploader: each frame's cost is estimated
from a lent view, then the bucket admits the send now (calling back) or defers it until
enough tokens have been refilled on a later tick."""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def relu(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        if a[i] < 0.0:
            a[i] = 0.0


class TokenBucket:
    def __init__(self, capacity: float, refill: float) -> None:
        self.capacity, self.refill = capacity, refill
        self.tokens = capacity
        self.deferred: deque[tuple[float, Callable[[], None]]] = deque()

    def admit(self, cost: float, send: Callable[[], None]) -> bool:
        if not self.deferred and self.tokens >= cost:
            self.tokens -= cost
            send()
            return True
        self.deferred.append((cost, send))
        return False

    def tick(self) -> None:
        self.tokens = min(self.capacity, self.tokens + self.refill)
        while self.deferred and self.tokens >= self.deferred[0][0]:
            cost, send = self.deferred.popleft()
            self.tokens -= cost
            send()


def estimate_cost(view: View) -> float:
    return float(np.count_nonzero(view.read())) / 64.0


class Uploader:
    def __init__(self, n: int, bucket: TokenBucket) -> None:
        self.stream = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.frame: Host = nx.pinned_array(n, np.float32)
        self.bucket = bucket
        self.kept: list[float] = []

    def _send(self) -> None:
        self.frame = self.stream.upload(self.frame, to=self.dev).wait()
        self.stream.launch(relu, 2, 64, self.dev)
        self.frame = self.stream.download(self.dev, into=self.frame).wait()
        self.kept.append(float(self.frame.read().sum(dtype=np.float64)))

    def offer(self, values: np.ndarray[Any, np.dtype[np.float32]]) -> bool:
        with self.frame.write() as a:
            a[:] = values
        with self.frame.lend() as view:
            cost = estimate_cost(view)
            return self.bucket.admit(cost, self._send)  # E: owner-borrowed

    def drain(self) -> None:
        while self.bucket.deferred:
            self.bucket.tick()

    def close(self) -> None:
        self.frame.free()
        self.stream.close()


def main() -> None:
    n = 256
    up = Uploader(n, TokenBucket(capacity=6.0, refill=2.0))
    ramp = np.linspace(-1.0, 1.0, n, dtype=np.float32)
    admitted = [up.offer(ramp * k) for k in (1.0, 2.0)]
    up.drain()
    up.close()
    assert admitted == [True, False]
    assert len(up.kept) == 2 and up.kept[1] > up.kept[0] > 0.0
    print("admitted", admitted, "kept", up.kept)


if __name__ == "__main__":
    main()
