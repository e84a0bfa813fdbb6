# RUN: ok
# Flags: local variables holding True/False/None or an enum member that decide, by a
# test, whether a buffer is taken back. The checker keeps the paths on which a flag
# differs apart, so a take-back guarded by the flag covers the paths that moved the
# buffer. No report.
from __future__ import annotations

from enum import Enum

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def sent_flag(s: nx.Stream[nx.Lent], buf: Host, dev: Dev) -> Host:
    """A flag set right after the upload; the take-back is guarded by it."""
    sent = False
    try:
        up = s.upload(buf, to=dev)
        sent = True
    except nx.StreamClosedError:
        pass
    if sent:
        buf = up.wait()
    buf.read()
    return buf


def first_iteration(s: nx.Stream[nx.Lent], bufs: list[Host], dev: Dev) -> float:
    """A loop that waits the previous upload from its second iteration on."""
    total = 0.0
    first = True
    host = nx.pinned_array(N, np.float32)
    pending: nx.Transfer[Host]
    for b in bufs:
        if not first:
            host = pending.wait()
            total += float(host.read()[0])
        pending = s.upload(b, to=dev)
        first = False
    if not first:
        host = pending.wait()
        total += float(host.read()[0])
    return total


def given_when(pool: nx.PinnedPool[np.float32], s: nx.Stream[nx.Lent], dev: Dev) -> float:
    """Two tests of one flag: the buffer given back on one, freed on the other."""
    buf = pool.try_take()
    pooled = buf is not None
    if buf is None:
        buf = nx.pinned_array(N, np.float32)
    with buf.write() as a:  # a pooled buffer holds whatever its last user left
        a[:] = 1.0
    buf = s.upload(buf, to=dev).wait()
    answer = float(buf.read()[0])
    if pooled:
        pool.give(buf)
    if not pooled:
        buf.free()
    return answer


def now_or_later(s: nx.Stream[nx.Lent], host: Host, dev: Dev, now: bool) -> Host:
    """A bool parameter: the take-back happens in one of two places."""
    up = s.upload(host, to=dev)
    if now:
        host = up.wait()
    print("other work")
    if not now:
        host = up.wait()
    host.read()
    return host


class Step(Enum):
    FILL = 1
    SEND = 2
    DONE = 3


def steps(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    """A loop driven by an enum state: the upload is completed in the step after."""
    step = Step.FILL
    while step is not Step.DONE:
        if step is Step.FILL:
            with host.write() as a:
                a[:] = 1.0
            up = s.upload(host, to=dev)
            step = Step.SEND
        elif step == Step.SEND:
            host = up.wait()
            step = Step.DONE
    host.read()
    return host


def until_done(s: nx.Stream[nx.Lent], host: Host, dev: Dev, rounds: int) -> Host:
    """``while not done``: the flag is set in the iteration that takes the buffer back."""
    done = False
    k = 0
    up = s.upload(host, to=dev)
    while not done:
        k += 1
        if k >= rounds:
            host = up.wait()
            done = True
    host.read()
    return host


def main() -> None:
    dev = nx.device_array(N, np.float32)
    s = nx.stream()
    buf = sent_flag(s, nx.pinned_copy(np.ones(N, np.float32)), dev)
    dead = nx.stream()
    dead.close()
    buf = sent_flag(dead, buf, dev)
    assert first_iteration(s, [nx.pinned_copy(np.ones(N, np.float32)) for _ in range(3)], dev) == 3.0
    pool = nx.PinnedPool(1, N, np.float32)
    assert given_when(pool, s, dev) == 1.0 and given_when(pool, s, dev) == 1.0
    buf = now_or_later(s, buf, dev, True)
    buf = now_or_later(s, buf, dev, False)
    buf = steps(s, buf, dev)
    buf = until_done(s, buf, dev, 3)
    s.close()


main()
