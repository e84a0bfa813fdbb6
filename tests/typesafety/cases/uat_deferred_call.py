# A function handed to an executor, a thread or the event loop with its arguments
# (``pool.submit(f, buf)``, ``Thread(target=f, args=(buf,))``, ``asyncio.to_thread``,
# ``loop.run_in_executor``, ``loop.call_soon``) owns from that call on what its body
# moves: a use of it afterwards races the worker, like a value moved into a Rust thread.
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def send(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    return s.upload(host, to=dev).wait()


def drop(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> None:
    s.upload(host, to=dev).wait().free()


def submitted(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    with ThreadPoolExecutor(max_workers=2) as pool:
        fut = pool.submit(send, s, host, dev)
        host.read()  # E: use-after-transfer "the future's result()"
        return fut.result()


def keywords(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    with ThreadPoolExecutor(max_workers=2) as pool:
        fut = pool.submit(send, s, dev=dev, host=host)
        print(float(host.read()[0]))  # E: use-after-transfer
        return fut.result()


def threaded(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> None:
    worker = threading.Thread(target=drop, args=(s, host, dev))
    worker.start()
    host.read()  # E: use-after-transfer
    worker.join()


def threaded_kwargs(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> None:
    worker = threading.Thread(target=drop, args=(s,), kwargs={"host": host, "dev": dev})
    worker.start()
    host.free()  # E: use-after-transfer
    worker.join()


async def to_thread(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    job = asyncio.to_thread(send, s, host, dev)
    host.read()  # E: use-after-transfer
    return await job


async def in_executor(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    loop = asyncio.get_running_loop()
    fut = loop.run_in_executor(None, send, s, host, dev)
    host.read()  # E: use-after-transfer
    return await fut


async def soon(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> None:
    loop = asyncio.get_running_loop()
    loop.call_soon(drop, s, host, dev)
    host.read()  # E: use-after-transfer
    await asyncio.sleep(0)
