# RUN: ok
"""An in-flight ledger: result downloads are issued into buffers from a pinned pool and
recorded as tickets; settle() completes a ticket, records its value and returns the
buffer to the pool; an audit at the end checks the ledger against the expected values."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def ramp(a: Any, base: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = base + i


class Ticket(NamedTuple):
    key: str
    transfer: nx.Transfer[Host]


class Ledger:
    def __init__(self, buffers: int, n: int) -> None:
        self.pool: nx.PinnedPool[np.float32] = nx.PinnedPool(buffers, n, np.float32)
        self.stream = nx.stream()
        self.open: dict[str, Ticket] = {}
        self.settled: dict[str, float] = {}

    def submit(self, key: str, dev: nx.DeviceArray[nx.Owned, np.float32], base: float) -> Ticket:
        self.stream.launch(ramp, 2, 64, dev, base)
        ticket = Ticket(key, self.stream.download(dev, into=self.pool.take()))
        self.open[key] = ticket
        return ticket

    def settle(self, ticket: Ticket) -> float:
        del self.open[ticket.key]
        out = ticket.transfer.wait()
        value = float(out.read()[0])
        self.pool.give(out)
        self.settled[ticket.key] = value
        return value

    def close(self) -> None:
        assert not self.open, f"unsettled: {sorted(self.open)}"
        self.pool.drain()
        self.stream.close()


def main() -> None:
    n = 256
    ledger = Ledger(buffers=3, n=n)
    devs = [nx.device_array(n, np.float32) for _ in range(3)]
    tickets = [ledger.submit(f"r{i}", dev, 10.0 * i) for i, dev in enumerate(devs)]
    values = [ledger.settle(t) for t in reversed(tickets)]
    audit = {t.key: ledger.settled[t.key] for t in tickets}
    more = ledger.submit("r3", devs[0], 5.0)
    values.append(ledger.settle(more))
    ledger.close()
    for dev in devs:
        dev.free()
    assert values == [20.0, 10.0, 0.0, 5.0]
    assert audit == {"r0": 0.0, "r1": 10.0, "r2": 20.0}
    print("values", values, "audit", audit)


if __name__ == "__main__":
    main()
