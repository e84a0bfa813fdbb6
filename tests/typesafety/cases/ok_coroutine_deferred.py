# RUN: ok
# Coroutines and deferred calls used correctly: the caller takes back what the
# coroutine, task, future or thread gives back, and never touches a moved argument in
# between. No report. (A function that moves its argument on some paths only, handed to
# a thread, is left alone: which path it took, only its result says.)
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


async def stage(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    return await s.upload(host, to=dev)


async def checksum(host: Host) -> float:
    """Reads its argument only: the caller keeps it."""
    await asyncio.sleep(0)
    return float(host.read().sum())


def send(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    return s.upload(host, to=dev).wait()


def try_send(s: nx.Stream[nx.Lent], host: Host, dev: Dev, out: dict[str, Host]) -> None:
    """Moves ``host`` unless the stream refuses: ``out`` says which."""
    try:
        out["back"] = s.upload(host, to=dev).wait()
    except nx.StreamClosedError:
        pass


async def coroutines(s: nx.Stream[nx.Lent], dev: Dev) -> Host:
    host = nx.pinned_copy(np.ones(N, np.float32))
    host = await stage(s, host, dev)
    total = await checksum(host)
    task = asyncio.create_task(stage(s, host, dev))
    host = await task
    other = nx.pinned_copy(np.ones(N, np.float32))
    d2 = nx.device_array(N, np.float32)
    host, other = await asyncio.gather(stage(s, host, dev), stage(s, other, d2))
    other.free()
    d2.free()
    assert total == N
    return host


def deferred(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    with ThreadPoolExecutor(max_workers=1) as pool:
        fut = pool.submit(send, s, host, dev)
        host = fut.result()
    host.read()
    out: dict[str, Host] = {}
    worker = threading.Thread(target=try_send, args=(s, host, dev, out))
    worker.start()
    worker.join()
    return out["back"]


async def threads_from_async(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    host = await asyncio.to_thread(send, s, host, dev)
    loop = asyncio.get_running_loop()
    host = await loop.run_in_executor(None, send, s, host, dev)
    return host


async def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = await coroutines(s, dev)
    host = deferred(s, host, dev)
    host = await threads_from_async(s, host, dev)
    host.read()
    host.free()
    s.close()


asyncio.run(main())
