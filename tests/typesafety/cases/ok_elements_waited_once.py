# Transfers in a container completed once: a wait loop followed by a clear, a rebinding,
# a refill (in a loop, or by a function given the container), a take-out loop (pop),
# a second loop that waits only those not completed yet (t.completed), and one that only
# looks (done(), completed, label).
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def refill(ups: list[nx.Transfer[Host]], hosts: list[Host], dev: Dev, s: nx.Stream[nx.Owned]) -> None:
    ups[:] = [s.upload(h, to=dev) for h in hosts]


def rounds(hosts: list[Host], dev: Dev, s: nx.Stream[nx.Owned]) -> list[Host]:
    ups = [s.upload(h, to=dev) for h in hosts]
    for i, t in enumerate(ups):
        hosts[i] = t.wait()
    print([t.completed for t in ups], [t.done() for t in ups])  # looking is no completion
    ups.clear()
    for h in hosts:
        ups.append(s.upload(h, to=dev))
    for i, t in enumerate(ups):
        hosts[i] = t.wait()
    ups = [s.upload(h, to=dev) for h in hosts]  # a new list
    for i, t in enumerate(ups):
        hosts[i] = t.wait()
    for i, h in enumerate(hosts):
        ups[i] = s.upload(h, to=dev)  # a refill in a loop
    for i, t in enumerate(ups):
        hosts[i] = t.wait()
    refill(ups, hosts, dev, s)  # a function given the list may refill it
    return [t.wait() for t in ups]


def poll_then_finish(hosts: dict[str, Host], dev: Dev, s: nx.Stream[nx.Owned]) -> dict[str, Host]:
    ups = {k: s.upload(h, to=dev) for k, h in hosts.items()}
    for k, t in ups.items():
        if t.done():
            hosts[k] = t.wait()
    for k, t in ups.items():
        if not t.completed:
            hosts[k] = t.wait()
    return hosts


def take_out(hosts: dict[str, Host], dev: Dev, s: nx.Stream[nx.Owned]) -> dict[str, Host]:
    ups = {k: s.upload(h, to=dev) for k, h in hosts.items()}
    for k in [k for k, t in ups.items() if t.done()]:
        hosts[k] = ups.pop(k).wait()
    for k, t in ups.items():
        hosts[k] = t.wait()
    return hosts


s = nx.stream()
dev = nx.device_array(N, np.float32)
hosts = rounds([nx.pinned_array(N, np.float32) for _ in range(2)], dev, s)
named = poll_then_finish({"a": hosts[0]}, dev, s)
named = take_out(named, dev, s)
s.close()
