# A fetcher object whose result() takes the buffer back and clears the pending
# transfer, and whose close() completes a transfer that is still pending (a fetch
# nobody collected) before freeing. The bug: result() takes the buffer back but does
# not clear self.pending, so close() waits the same transfer a second time.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


class Fetcher:
    def __init__(self, s: nx.Stream[nx.Lent], dev: nx.DeviceArray[nx.Owned, np.float32]) -> None:
        self.s, self.dev = s, dev
        self.out: Host = nx.pinned_array(N, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def start(self) -> None:
        self.pending = self.s.download(self.dev, into=self.out)

    def result(self) -> float:
        if self.pending is not None:
            self.out = self.pending.wait()
        return float(self.out.read()[0])

    def close(self) -> None:
        if self.pending is not None:
            self.out = self.pending.wait()
            self.pending = None
        self.out.free()


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    src = nx.pinned_copy(np.full(N, 4.0, np.float32))
    src = s.upload(src, to=dev).wait()
    a, b = Fetcher(s, dev), Fetcher(s, dev)
    a.start()
    b.start()
    value = a.result()
    a.close()  # E: transfer-completed-twice "pending"
    b.close()
    assert value == 4.0
    print("value", value)
    s.close()


main()
