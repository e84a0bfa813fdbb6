# RUN: raises UseAfterTransferError
# A request handler over a PinnedPool with a fallback: try_take() gives a pooled buffer
# when one is free, otherwise a one-off buffer is allocated; after the round trip the
# pooled buffer goes back with give() and the one-off one is freed. The log line reads
# only what was copied out before the buffer left the handler. The bug: the answer is
# computed in the log line, after the pooled buffer was given back to the pool.
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


class Handler:
    def __init__(self, s: nx.Stream[nx.Lent]) -> None:
        self.s = s
        self.pool = nx.PinnedPool(1, N, np.float32)
        self.dev = nx.device_array(N, np.float32)
        self.fallbacks = 0

    def handle(self, request: NDArray[np.float32]) -> float:
        buf = self.pool.try_take()
        pooled = buf is not None
        if buf is None:
            buf = nx.pinned_array(N, np.float32)
            self.fallbacks += 1
        with buf.write() as a:
            a[:] = request
        buf = self.s.upload(buf, to=self.dev).wait()
        buf = self.s.download(self.dev, into=buf).wait()
        if pooled:
            self.pool.give(buf)
        answer = float(buf.read().sum())  # E: use-after-transfer "buf" "PinnedPool.give()"
        if not pooled:
            buf.free()
        print(f"request answered: {answer} (pooled={pooled})")
        return answer


def main() -> None:
    s = nx.stream()
    h = Handler(s)
    answers = [h.handle(np.full(N, float(i), np.float32)) for i in range(3)]
    assert answers == [0.0, 8.0, 16.0] and h.fallbacks == 0
    s.close()


main()
