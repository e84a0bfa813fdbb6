# RUN: raises BorrowError via-call
# A method that writes an attribute of ``self`` in place (``with self.host.write()``,
# ``self.host.free()``) before any store into it, called inside that attribute's lend:
# the write breaks the lend, even though the method re-uploads and rebinds the buffer
# afterwards. Reported at the call, naming the method.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
View = nx.PinnedArray[nx.Lent, np.float64]


class Inflow:
    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.dev = nx.device_array(n, np.float64)
        self.host: Host = nx.pinned_array(n, np.float64)

    def inject(self, value: float) -> None:
        with self.host.write() as a:
            a[0] = value
        self.host = self.stream.upload(self.host, to=self.dev).wait()

    def monitor(self, seen: list[float]) -> None:
        with self.host.lend() as view:
            seen.append(float(view.read()[0]))
            self.inject(1.0)  # E: owner-borrowed "called by Inflow.inject()"

    def close(self) -> None:
        self.dev.free()
        self.stream.close()


def main() -> None:
    flow = Inflow(8)
    seen: list[float] = []
    flow.monitor(seen)
    flow.close()


main()
