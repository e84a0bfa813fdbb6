# RUN: raises BorrowError via-call
# XFAIL: miss (line 93): _fallback() refreshes (downloads into) last_good while its own lend of it is open, through a method of the breaker; a move made by a called method inside the caller's lend of another attribute is not followed
# Planted bug: _fallback() attempts the cooldown refresh while it still holds the lend of last_good, and the refresh's download moves last_good into the transfer.
"""A circuit breaker in front of a device-backed scoring backend: after repeated backend
failures the breaker opens and queries are answered from the last good result (read
through a lend); once the cooldown has passed, the fallback tries a refresh and closes
the breaker again if it succeeds."""

from __future__ import annotations

import enum
from typing import Any, Callable

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class BackendError(RuntimeError):
    pass


@cuda.jit
def score(a: Any, epoch: int) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = epoch + 0.0


class State(enum.Enum):
    CLOSED = 0
    OPEN = 1


class Breaker:
    def __init__(self, threshold: int, cooldown: int) -> None:
        self.threshold, self.cooldown = threshold, cooldown
        self.state, self.failures, self.opened_at, self.now = State.CLOSED, 0, 0, 0

    def cooled(self) -> bool:
        return self.now - self.opened_at >= self.cooldown

    def reset(self) -> None:
        self.state, self.failures = State.CLOSED, 0

    def call(self, fn: Callable[[], float], fallback: Callable[[], float]) -> float:
        self.now += 1
        if self.state is State.OPEN:
            return fallback()
        try:
            value = fn()
        except BackendError:
            self.failures += 1
            if self.failures >= self.threshold:
                self.state, self.opened_at = State.OPEN, self.now
            return fallback()
        self.failures = 0
        return value


class ScoringService:
    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.last_good: Host = nx.pinned_copy(np.zeros(n, dtype=np.float32))
        self.breaker = Breaker(threshold=2, cooldown=2)
        self.down_until = 0
        self.epoch = 0
        self.stale_served = 0

    def _fetch(self) -> float:
        self.epoch += 1
        if self.breaker.now <= self.down_until:
            raise BackendError("backend unavailable")
        self.stream.launch(score, 2, 64, self.dev, self.epoch)
        self.last_good = self.stream.download(self.dev, into=self.last_good).wait()
        return float(self.last_good.read()[0])

    def _try_refresh(self) -> None:
        try:
            self._fetch()
            self.breaker.reset()
        except BackendError:
            self.breaker.opened_at = self.breaker.now

    def _fallback(self) -> float:
        self.stale_served += 1
        with self.last_good.lend() as view:
            stale = float(view.read()[0])
            if self.breaker.state is State.OPEN and self.breaker.cooled():
                self._try_refresh()  # E: owner-borrowed
        return stale

    def query(self) -> float:
        return self.breaker.call(self._fetch, self._fallback)

    def close(self) -> None:
        self.last_good.free()
        self.stream.close()


def main() -> None:
    svc = ScoringService(256)
    answers = [svc.query()]
    svc.down_until = 4
    answers += [svc.query() for _ in range(6)]
    svc.close()
    assert answers == [1.0, 1.0, 1.0, 1.0, 1.0, 5.0, 6.0], answers
    assert svc.stale_served == 4 and svc.breaker.state is State.CLOSED
    print("answers", answers, "stale", svc.stale_served)


if __name__ == "__main__":
    main()
