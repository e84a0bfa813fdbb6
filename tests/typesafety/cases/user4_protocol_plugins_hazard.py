# A plugin system: a typing.Protocol for "copy engines" and two implementations (a
# plain upload, and an upload + kernel + chained download round trip); the driver
# picks one by name and feeds it batches. The bug: the next batch is written into the
# buffer while the engine's transfer still owns it (the wait() moved below it).
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 32


@cuda.jit
def negate(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = -a[i]


class CopyEngine(Protocol):
    name: str

    def submit(self, buf: nx.Consumed[Host]) -> nx.Transfer[Host]: ...


class UploadOnly:
    name = "upload"

    def __init__(self, s: nx.Stream[nx.Owned], dev: Dev) -> None:
        self.s, self.dev = s, dev

    def submit(self, buf: nx.Consumed[Host]) -> nx.Transfer[Host]:
        return self.s.upload(buf, to=self.dev)


class RoundTrip:
    name = "roundtrip"

    def __init__(self, s: nx.Stream[nx.Owned], dev: Dev) -> None:
        self.s, self.dev = s, dev

    def submit(self, buf: nx.Consumed[Host]) -> nx.Transfer[Host]:
        up = self.s.upload(buf, to=self.dev)
        self.s.launch(negate, 1, N, self.dev)
        return self.s.download(self.dev, into=up)


def drive(engine: CopyEngine, batches: int) -> float:
    buf = nx.pinned_array(N, np.float32)
    total = 0.0
    with buf.write() as a:
        a[:] = 1.0
    for b in range(batches):
        t = engine.submit(buf)
        if b + 1 < batches:
            with buf.write() as a:  # E: use-after-transfer "buf" "buf = t.wait()"
                a[:] = float(b + 2)
        buf = t.wait()
        total += float(buf.read()[0])
    return total


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    engines: dict[str, CopyEngine] = {"upload": UploadOnly(s, dev), "roundtrip": RoundTrip(s, dev)}
    results = {name: drive(engine, 3) for name, engine in engines.items()}
    assert results == {"upload": 6.0, "roundtrip": -6.0}, results
    s.close()


main()
