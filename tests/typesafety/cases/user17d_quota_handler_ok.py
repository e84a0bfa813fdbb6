# RUN: ok
"""An asyncio scoring service: every request uploads its payload into a staging slot,
scales it on the device and downloads the result, while the quota check runs.

Slots (a stream, a pinned staging buffer, a device buffer) live in an asyncio.Queue;
a handler takes one, works, and puts it back in ``finally``. A request over its
tenant's quota is rejected after the upload was started (the check overlaps the copy).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

N = 256


@cuda.jit
def scale(a: Any, factor: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


@dataclass
class Slot:
    stream: nx.Stream[nx.Owned]
    host: nx.PinnedArray[nx.Owned, np.float32]
    dev: nx.DeviceArray[nx.Owned, np.float32]


@dataclass
class Request:
    rid: int
    tenant: str
    payload: NDArray[np.float32]


@dataclass
class Response:
    rid: int
    accepted: bool
    total: float = 0.0
    reason: str = ""


@dataclass
class QuotaBook:
    budgets: dict[str, int]
    spent: dict[str, int] = field(default_factory=dict)

    async def charge(self, tenant: str, units: int) -> bool:
        await asyncio.sleep(0)  # a round trip to the quota store
        used = self.spent.get(tenant, 0) + units
        if used > self.budgets.get(tenant, 0):
            return False
        self.spent[tenant] = used
        return True


class ScoringService:
    def __init__(self, slots: int, quota: QuotaBook) -> None:
        self._free: asyncio.Queue[Slot] = asyncio.Queue()
        self._all: list[Slot] = []
        for _ in range(slots):
            slot = Slot(nx.stream(), nx.pinned_array(N, np.float32), nx.device_array(N, np.float32))
            self._all.append(slot)
            self._free.put_nowait(slot)
        self._quota = quota
        self.factor = 2.0

    async def handle(self, req: Request) -> Response:
        slot = await self._free.get()
        try:
            with slot.host.write() as a:
                a[:] = req.payload
            up = slot.stream.upload(slot.host, to=slot.dev)
            allowed = await self._quota.charge(req.tenant, 1)  # overlaps the copy
            if not allowed:
                slot.host = await up  # the slot goes back with its buffer home
                return Response(req.rid, False, reason=f"tenant {req.tenant} over quota")
            slot.host = await up
            slot.stream.launch(scale, 1, 16, slot.dev, self.factor)
            slot.host = await slot.stream.download(slot.dev, into=slot.host)
            total = float(slot.host.read().sum(dtype=np.float64))
            return Response(req.rid, True, total)
        finally:
            self._free.put_nowait(slot)

    def shutdown(self) -> None:
        assert self._free.qsize() == len(self._all), "a slot was not returned"
        for slot in self._all:
            slot.stream.close()
            slot.host.free()
            slot.dev.free()


async def serve(service: ScoringService, requests: list[Request]) -> list[Response]:
    try:
        return list(await asyncio.gather(*(service.handle(r) for r in requests)))
    finally:
        service.shutdown()


def main() -> None:
    tenants = ["acme", "globex", "acme", "globex", "globex", "acme"]
    requests = [
        Request(i, t, np.full(N, float(i + 1), dtype=np.float32)) for i, t in enumerate(tenants)
    ]
    quota = QuotaBook({"acme": 3, "globex": 2})
    service = ScoringService(slots=2, quota=quota)  # allocated at startup, off the loop
    responses = asyncio.run(serve(service, requests))
    accepted = {r.rid: r.total for r in responses if r.accepted}
    rejected = [r.rid for r in responses if not r.accepted]
    assert rejected == [4], f"rejected: {rejected}"
    for rid, total in accepted.items():
        assert total == 2.0 * (rid + 1) * N, f"request {rid}: {total}"
    print(f"quota_handler: {len(accepted)} scored, {len(rejected)} rejected")


if __name__ == "__main__":
    main()
