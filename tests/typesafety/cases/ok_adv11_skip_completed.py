# RUN: ok
# drain() completes every transfer not completed yet; the caller completed one by hand first.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def drain(ts: list[nx.Transfer[Host]], into: list[Host]) -> None:
    for t in ts:
        if t.completed:
            continue
        into.append(t.wait())


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    ts = [s.upload(nx.pinned_array(N, np.float32), to=dev) for _ in range(3)]
    hosts: list[Host] = [ts[0].wait()]  # the first one is needed right away
    drain(ts, hosts)
    assert len(hosts) == 3
    single = s.upload(hosts.pop(), to=dev)
    if single.done():
        hosts.append(single.wait())
    drain([single], hosts)
    print(len(hosts))
    s.close()


if __name__ == "__main__":
    main()
