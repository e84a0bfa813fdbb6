# RUN: ok
"""A connection state machine: events (open, data, flush, close) are dispatched through a
transition table; data chunks are uploaded and accumulated on the device while OPEN, and
data arriving after close is counted as dropped."""

from __future__ import annotations

import enum
from typing import Any, Callable

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def accumulate(acc: Any, chunk: Any) -> None:
    for i in range(cuda.grid(1), acc.size, cuda.gridsize(1)):
        acc[i] += chunk[i]


class State(enum.Enum):
    IDLE = "idle"
    OPEN = "open"
    CLOSED = "closed"


class Connection:
    def __init__(self, n: int) -> None:
        self.n = n
        self.state = State.IDLE
        self.stream: nx.Stream[nx.Owned] = nx.stream()
        self.acc = nx.device_array(n, np.float32)
        self.chunk = nx.device_array(n, np.float32)
        self.staging: Host = nx.pinned_array(n, np.float32)
        self.dropped = 0
        self.flushed: list[float] = []
        self.table: dict[str, Callable[[NDArray[np.float32] | None], None]] = {
            "open": self._on_open,
            "data": self._on_data,
            "flush": self._on_flush,
            "close": self._on_close,
        }

    def handle(self, event: str, payload: NDArray[np.float32] | None = None) -> State:
        self.table[event](payload)
        return self.state

    def _on_open(self, _: NDArray[np.float32] | None) -> None:
        with self.staging.write() as a:
            a[:] = 0.0
        self.staging = self.stream.upload(self.staging, to=self.acc).wait()
        self.state = State.OPEN

    def _on_data(self, payload: NDArray[np.float32] | None) -> None:
        if self.state is not State.OPEN or payload is None:
            self.dropped += 1
            return
        with self.staging.write() as a:
            a[:] = payload
        up = self.stream.upload(self.staging, to=self.chunk)
        self.stream.launch(accumulate, 2, 64, self.acc, self.chunk)
        self.staging = up.wait()

    def _on_flush(self, _: NDArray[np.float32] | None) -> None:
        self.staging = self.stream.download(self.acc, into=self.staging).wait()
        self.flushed.append(float(self.staging.read().sum(dtype=np.float64)))

    def _on_close(self, _: NDArray[np.float32] | None) -> None:
        self._on_flush(None)
        self.stream.close()
        self.state = State.CLOSED


def main() -> None:
    n = 256
    conn = Connection(n)
    ones = np.ones(n, dtype=np.float32)
    events: list[tuple[str, NDArray[np.float32] | None]] = [
        ("data", ones), ("open", None), ("data", ones), ("data", 2 * ones),
        ("flush", None), ("data", ones), ("close", None), ("data", ones),
    ]
    states = [conn.handle(ev, payload) for ev, payload in events]
    conn.staging.free()
    assert states[-1] is State.CLOSED and conn.dropped == 2
    assert conn.flushed == [3.0 * n, 4.0 * n]
    print("states", [s.value for s in states], "flushed", conn.flushed)


if __name__ == "__main__":
    main()
