# RUN: ok
# A retry loop `for attempt in range(n):` whose every way to the next attempt passes
# `if attempt == n - 1: raise` is left only by its break (or the raise): the checker
# does not take the exhausted loop, where the last attempt's handler already waited,
# as a path to the wait after the loop.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Stall(Exception):
    pass


class Encoder:
    def __init__(self, stalls: int) -> None:
        self.stalls = stalls

    def submit(self) -> None:
        if self.stalls:
            self.stalls -= 1
            raise Stall


def encode(s: nx.Stream[nx.Lent], d: Dev, enc: Encoder, kept: list[Host]) -> None:
    for attempt in range(3):
        up = s.upload(nx.pinned_copy(np.ones(8, np.float32)), to=d)
        try:
            enc.submit()
        except Stall:
            kept.append(up.wait())
            if attempt == 2:
                raise
            continue
        break
    kept.append(up.wait())


def encode_fallthrough(s: nx.Stream[nx.Lent], d: Dev, enc: Encoder, kept: list[Host]) -> None:
    retries = 3
    for attempt in range(retries):
        up = s.upload(nx.pinned_copy(np.ones(8, np.float32)), to=d)
        try:
            enc.submit()
            break
        except Stall:
            kept.append(up.wait())
            if attempt + 1 == retries:
                raise
    kept.append(up.wait())


s = nx.stream()
dev = nx.device_array(8, np.float32)
bufs: list[Host] = []
encode(s, dev, Encoder(1), bufs)
encode_fallthrough(s, dev, Encoder(2), bufs)
for b in bufs:
    b.free()
s.close()
