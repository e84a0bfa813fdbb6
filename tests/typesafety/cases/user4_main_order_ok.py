# A module with a main() that builds objects and calls their methods in another order
# than the class defines them: after __init__, finish() is written first, then use, then the prefetch.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
N = 16


class Prefetcher:
    def __init__(self, s: nx.Stream[nx.Lent], values: np.ndarray) -> None:
        self.s = s
        self.dev = nx.device_array(N, np.float64)
        src = nx.pinned_copy(values.astype(np.float64))
        src = s.upload(src, to=self.dev).wait()
        self.host: Host = nx.pinned_array(N, np.float64)
        self.pending: nx.Transfer[Host] | None = None

    def finish(self) -> None:
        """Take the buffer back from the prefetch (call before reading it)."""
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None

    def consume(self) -> float:
        return float(self.host.read().sum())

    def prefetch(self) -> None:
        self.pending = self.s.download(self.dev, into=self.host)


def main() -> None:
    s = nx.stream()
    a = Prefetcher(s, np.ones(N))
    b = Prefetcher(s, np.arange(N))
    a.prefetch()
    b.prefetch()
    a.finish()
    total = a.consume()
    b.finish()
    total += b.consume()
    assert total == N + N * (N - 1) / 2
    print("total", total)
    s.close()


if __name__ == "__main__":
    main()
