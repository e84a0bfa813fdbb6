# RUN: ok
"""A frame publisher: the latest downloaded frame is lent to subscribers, who may hold
their lend across producer steps; the producer retries the refresh when it is refused
with BorrowError, after the slow subscribers have let go."""
from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 80
F32 = np.float32
Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def advance(field: Any, t: float) -> None:
    i = cuda.grid(1)
    if i < field.size:
        field[i] = 0.9 * field[i] + 0.1 * t


class Publisher:
    def __init__(self) -> None:
        self.stream = nx.stream()
        self.dev = nx.device_array(N, F32)
        self.frame = self.stream.upload(nx.pinned_copy(np.zeros(N, F32)), to=self.dev).wait()
        self.refused = 0

    def refresh(self, t: float, holders: ExitStack) -> None:
        self.stream.launch(advance, 2, 64, self.dev, t)
        for attempt in range(2):
            try:
                self.frame = self.stream.download(self.dev, into=self.frame).wait()
                return
            except nx.BorrowError:
                self.refused += 1
                holders.close()        # tell slow subscribers to let go, then retry
        raise RuntimeError("frame still lent after retry")

    def shutdown(self, report: list[float]) -> None:
        with self.frame.lend() as view:
            report.append(float(view.read().mean()))
        self.frame.free()
        self.stream.close()


def subscriber_mean(view: View) -> float:
    return float(view.read().mean())


def main(steps: int = 6) -> None:
    pub = Publisher()
    means: list[float] = []
    holders = ExitStack()
    for t in range(1, steps + 1):
        pub.refresh(float(t), holders)
        view = holders.enter_context(pub.frame.lend())
        means.append(subscriber_mean(view))
        if t % 2:
            holders.close()
    holders.close()
    final: list[float] = []
    pub.shutdown(final)
    print(f"means {[round(m, 4) for m in means]}, refused {pub.refused}, final {final[0]:.4f}")
    assert pub.refused > 0


if __name__ == "__main__":
    main()
