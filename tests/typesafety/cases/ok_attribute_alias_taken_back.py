# RUN: ok
# An attribute that names the same buffer as a local is moved with it, and is usable
# again once it is bound to the handle wait() gives back.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Loader:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.last: Host | None = None

    def stage(self) -> float:
        host = nx.pinned_array(8, np.float32)
        with host.write() as a:
            a[:] = 2.0
        self.last = host
        t = self.s.upload(host, to=self.dev)
        self.last = host = t.wait()
        return float(self.last.read()[0]) + float(host.read()[0])

    def report(self) -> float:
        assert self.last is not None
        return float(self.last.read()[0])

    def close(self) -> None:
        if self.last is not None:
            self.last.free()
        self.dev.free()
        self.s.close()


def main() -> None:
    ld = Loader()
    assert ld.stage() == 4.0
    assert ld.report() == 2.0
    ld.close()


main()
