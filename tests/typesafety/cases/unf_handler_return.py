# A handler of a named exception that ends with return answers the call as normal: a
# transfer pending where the exception was raised is dropped there, reported at its
# start (a catch-all handler, an error path, is not: ok_handler_return.py).
# RUN: warns ResourceWarning anywhere
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


class CorruptPacket(Exception):
    pass


def verify(bad: bool) -> None:
    if bad:
        raise CorruptPacket("checksum")


def decode(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    host = nx.pinned_array(8, np.float32)
    up = s.upload(host, to=d)
    down = s.download(d, into=up)  # E: unfinished-transfer "down"
    try:
        verify(bad)
    except CorruptPacket:
        return None
    host = down.wait()
    return float(host.read().sum())


async def decode_async(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    host = nx.pinned_array(8, np.float32)
    down = s.download(d, into=host)  # E: unfinished-transfer "down"
    try:
        verify(bad)
    except (CorruptPacket, ValueError):
        return None
    host = await down
    return float(host.read().sum())


stream = nx.stream()
dev = nx.device_array(8, np.float32)
decode(stream, dev, True)
asyncio.run(decode_async(stream, dev, False))
