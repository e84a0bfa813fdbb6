# Correct code in the control-flow shapes real programs use around transfers: a class
# method waiting in finally, a transfer held in an attribute, a walrus pool drain, waits
# in a comprehension, a suppressed refusal, a re-raising handler, a thread hand-off,
# match, a poll loop, enumerate over transfers, a dict of pending transfers.
# RUN: ok
from __future__ import annotations

import contextlib
import threading

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
S = nx.Stream[nx.Owned]


class Stager:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.host = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)
        self.up: nx.Transfer[Host] | None = None

    def sync(self) -> float:
        up = self.s.upload(self.host, to=self.dev)
        try:
            self.s.synchronize()
        finally:
            self.host = up.wait()
        return float(self.host.read()[0])

    def via_attr(self) -> float:
        self.up = self.s.upload(self.host, to=self.dev)
        self.host = self.up.wait()
        self.up = None
        return float(self.host.read()[0])


def drain_pool(pool: nx.PinnedPool[np.float32], s: S, dev: Dev) -> list[Host]:
    kept = []
    while (buf := pool.try_take()) is not None:
        buf = s.upload(buf, to=dev).wait()
        buf.read()
        kept.append(buf)
    return kept


def both(s: S, a: Host, b: Host, da: Dev, db: Dev) -> tuple[Host, Host]:
    ups = [s.upload(a, to=da), s.upload(b, to=db)]
    a, b = (t.wait() for t in ups)
    a.read()
    return a, b


def suppressed(s: S, host: Host, dev: Dev) -> Host:
    up = None
    with contextlib.suppress(nx.StreamClosedError):
        up = s.upload(host, to=dev)
    if up is not None:
        host = up.wait()
    host.read()
    return host


def reraise(s: S, host: Host, dev: Dev) -> Host:
    up = s.upload(host, to=dev)
    try:
        s.synchronize()
    except Exception:
        host = up.wait()
        raise
    host = up.wait()
    return host


def thread_handoff(s: S, host: Host, dev: Dev) -> Host:
    up = s.upload(host, to=dev)
    out: list[Host] = []
    th = threading.Thread(target=lambda: out.append(up.wait()))
    th.start()
    th.join()
    host = out[0]
    host.read()
    return host


def by_command(s: S, host: Host, dev: Dev, cmd: str) -> Host:
    match cmd:
        case "up":
            host = s.upload(host, to=dev).wait()
        case "down":
            t = s.download(dev, into=host)
            host = t.wait()
        case _:
            pass
    host.read()
    return host


def poll(s: S, host: Host, dev: Dev) -> Host:
    with host.lend() as v:
        n = v.size
    up = s.upload(host, to=dev)
    for _ in range(n):
        if up.done():
            break
    host = up.wait()
    return host


def all_slots(s: S, hosts: list[Host], devs: list[Dev]) -> None:
    ups = [s.upload(h, to=d) for h, d in zip(hosts, devs)]
    for i, t in enumerate(ups):
        hosts[i] = t.wait()
    for h in hosts:
        h.read()


def keyed(s: S, host: Host, dev: Dev) -> Host:
    pending: dict[str, nx.Transfer[Host]] = {}
    pending["x"] = s.upload(host, to=dev)
    return pending.pop("x").wait()


def main() -> None:
    st = Stager()
    st.sync()
    st.via_attr()
    st.s.close()
    s = nx.stream()
    dev, dev2 = nx.device_array(8, np.float32), nx.device_array(8, np.float32)
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, 8, np.float32)
    for buf in drain_pool(pool, s, dev):
        pool.give(buf)
    a, b = both(s, nx.pinned_array(8, np.float32), nx.pinned_array(8, np.float32), dev, dev2)
    a = suppressed(s, a, dev)
    a = reraise(s, a, dev)
    a = thread_handoff(s, a, dev)
    a = by_command(s, a, dev, "up")
    a = by_command(s, a, dev, "down")
    b = poll(s, b, dev)
    all_slots(s, [a, b], [dev, dev2])
    keyed(s, nx.pinned_array(8, np.float32), dev).read()
    s.close()


main()
