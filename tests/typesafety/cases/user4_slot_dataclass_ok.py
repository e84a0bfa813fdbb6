# Double-buffered uploads through dataclass slots: each Slot holds its host buffer, its
# device buffer and the transfer in flight (None when the buffer is home); a status
# report reads only slots whose buffer is home.
# RUN: ok
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


@dataclass
class Slot:
    host: Host
    dev: Dev
    pending: nx.Transfer[Host] | None = None
    uses: list[int] = field(default_factory=list)


def reclaim(slot: Slot) -> None:
    if slot.pending is not None:
        slot.host = slot.pending.wait()
        slot.pending = None


def fill_and_send(s: nx.Stream[nx.Lent], slot: Slot, batch: int) -> None:
    reclaim(slot)
    with slot.host.write() as a:
        a[:] = float(batch)
    slot.pending = s.upload(slot.host, to=slot.dev)
    slot.uses.append(batch)


def status(slots: list[Slot]) -> list[str]:
    lines = []
    for i, slot in enumerate(slots):
        if slot.pending is None:
            lines.append(f"slot {i}: home, first={slot.host.read()[0]}")
        else:
            lines.append(f"slot {i}: in flight ({slot.host.nbytes} bytes)")
    return lines


def main() -> None:
    s = nx.stream()
    slots = [Slot(nx.pinned_array(N, np.float32), nx.device_array(N, np.float32)) for _ in range(2)]
    for batch in range(5):
        fill_and_send(s, slots[batch % 2], batch)
    print("\n".join(status(slots)))
    for slot in slots:
        reclaim(slot)
    print("\n".join(status(slots)))
    assert [slot.uses for slot in slots] == [[0, 2, 4], [1, 3]]
    s.close()


main()
