# RUN: ok
# A writer thread that uploads its buffer only when the buffer changed (some paths)
# and otherwise leaves it alone; it reports which through a result slot. The caller
# joins the thread and rebinds from the slot. Also a thread that only reads its
# argument (a checksum), and a timer-style callback on the event loop that reads.
from __future__ import annotations

import asyncio
import threading

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def sync_if_dirty(
    s: nx.Stream[nx.Lent], host: Host, dev: Dev, dirty: bool, out: list[Host]
) -> None:
    if dirty:
        host = s.upload(host, to=dev).wait()
    out.append(host)


def checksum(host: Host, out: list[float]) -> None:
    out.append(float(host.read().sum()))


def log_first(host: Host, seen: list[float]) -> None:
    seen.append(float(host.read()[0]))


async def on_loop(host: Host) -> Host:
    loop = asyncio.get_running_loop()
    seen: list[float] = []
    loop.call_soon(log_first, host, seen)
    await asyncio.sleep(0)
    print(host.read()[0], seen)
    return host


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = nx.pinned_copy(np.ones(N, np.float32))
    slot: list[Host] = []
    t = threading.Thread(target=sync_if_dirty, args=(s, host, dev, True, slot))
    t.start()
    t.join()
    host = slot.pop()
    sums: list[float] = []
    r = threading.Thread(target=checksum, args=(host,), kwargs={"out": sums})
    r.start()
    r.join()
    print(host.read()[0], sums)
    host = asyncio.run(on_loop(host))
    host.free()
    dev.free()
    s.close()


main()
