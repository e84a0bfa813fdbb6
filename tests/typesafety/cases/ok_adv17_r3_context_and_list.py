# Rule 3, correct: the pending downloads are owned by a context manager whose __exit__
# completes them (leaving the with block through the exception completes them before the
# handler runs), or kept in a list the handler drains before returning, or completed
# before the try.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

from types import TracebackType

import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Host = nx.PinnedArray[nx.Owned, np.float32]


class CorruptPacket(Exception):
    pass


def verify(bad: bool) -> None:
    if bad:
        raise CorruptPacket("checksum")


class Fetch:
    def __init__(self, s: nx.Stream[nx.Owned], d: Dev) -> None:
        self.down = s.download(d, into=nx.pinned_array(8, np.float32))
        self.host: Host | None = None

    def __enter__(self) -> Fetch:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.host = self.down.wait()


def with_fetch(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    try:
        with Fetch(s, d) as f:
            verify(bad)
    except CorruptPacket:
        return None
    return 0.0 if f.host is None else float(f.host.read()[0])


def listed(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> int | None:
    pending: list[nx.Transfer[Host]] = []
    try:
        for _ in range(3):
            pending.append(s.download(d, into=nx.pinned_array(8, np.float32)))
        verify(bad)
    except CorruptPacket:
        for t in pending:
            t.wait().free()
        return None
    for t in pending:
        t.wait().free()
    return len(pending)


def before_try(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    down = s.download(d, into=nx.pinned_array(8, np.float32))
    try:
        host = down.wait()
        verify(bad)
    except CorruptPacket:
        return None
    return float(host.read()[0])


stream = nx.stream()
dev = nx.device_array(8, np.float32)
for flag in (True, False):
    with_fetch(stream, dev, flag)
    listed(stream, dev, flag)
    before_try(stream, dev, flag)
