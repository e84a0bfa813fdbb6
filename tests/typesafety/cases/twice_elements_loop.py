# Transfers kept in a container and completed in place by a loop (the loop variable's
# wait(); the container still holds them), then completed again: by a second loop, a
# comprehension, an index, a value taken out; a poll loop that completes some of them
# makes the second completion "may".
# RUN: raises UseAfterTransferError
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def twice(hosts: list[Host], devs: list[Dev], s: nx.Stream[nx.Owned]) -> list[Host]:
    ups = [s.upload(h, to=d) for h, d in zip(hosts, devs, strict=True)]
    for t in ups:
        t.wait()
    return [t.wait() for t in ups]  # E: transfer-completed-twice "Transfer \"t\" (an element of \"ups\", which still holds the transfers the loop at line 19 completed) is completed twice" "\"ups.pop(k).wait()\""


def polled(hosts: dict[str, Host], dev: Dev, s: nx.Stream[nx.Owned]) -> None:
    ups = {k: s.upload(h, to=dev) for k, h in hosts.items()}
    for k, t in ups.items():
        if t.done():
            hosts[k] = t.wait()
    for k, t in ups.items():
        hosts[k] = t.wait()  # E: transfer-completed-twice "may be completed twice" "line 28 on some path"


def by_index(hosts: list[Host], dev: Dev, s: nx.Stream[nx.Owned]) -> Host:
    ups = [s.upload(h, to=dev) for h in hosts]
    for i, t in enumerate(ups):
        hosts[i] = t.wait()
    return ups[0].wait()  # E: transfer-completed-twice "Transfer \"ups[0]\" (an element of \"ups\"" "is completed twice"


def taken_out(hosts: list[Host], dev: Dev, s: nx.Stream[nx.Owned]) -> Host:
    ups = [s.upload(h, to=dev) for h in hosts]
    for t in ups:
        t.wait()
    last = ups.pop()
    return last.wait()  # E: transfer-completed-twice "may be completed twice"


s = nx.stream()
hosts = [nx.pinned_array(N, np.float32) for _ in range(2)]
devs = [nx.device_array(N, np.float32) for _ in range(2)]
hosts = twice(hosts, devs, s)
s.close()
