# RUN: ok
# The holder stays set after its transfer completed (kept for its label); report()
# proves it non-None and completes it only when nobody did, then reads the buffer.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


class Uploader:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.host: Host = nx.pinned_array(N, np.float32)
        self.dev: Dev = nx.device_array(N, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def start(self, v: float) -> None:
        with self.host.write() as a:
            a[:] = v
        self.pending = self.s.upload(self.host, to=self.dev)

    def settle(self) -> None:
        if self.pending is not None and not self.pending.completed:
            self.host = self.pending.wait()

    def report(self) -> str:
        if self.pending is None:
            return "idle"
        if not self.pending.completed:
            self.host = self.pending.wait()
        return f"{self.pending.label}: {float(self.host.read().sum())}"

    def checked(self) -> float:
        assert self.pending is not None, "start() first"
        self.settle()
        return float(self.host.read().sum())


def main() -> None:
    s = nx.stream()
    u = Uploader(s)
    print(u.report())
    u.start(1.0)
    print(u.report())
    u.start(2.0)
    assert u.checked() == 2.0 * N
    u.start(3.0)
    u.settle()
    print(u.report())
    s.close()


if __name__ == "__main__":
    main()
