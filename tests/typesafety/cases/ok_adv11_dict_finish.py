# RUN: ok
# finish_all() completes every transfer of a dict; the dict is refilled key by key,
# with update(), and by a dict comprehension before the next finish_all().
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def finish_all(ts: dict[str, nx.Transfer[Host]]) -> dict[str, Host]:
    out: dict[str, Host] = {}
    for k, t in ts.items():
        out[k] = t.wait()
    return out


def finish_values(ts: dict[str, nx.Transfer[Host]]) -> list[Host]:
    return [t.wait() for t in ts.values()]


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    ts = {k: s.upload(nx.pinned_array(N, np.float32), to=dev) for k in "abc"}
    hosts = finish_all(ts)
    for k, h in hosts.items():
        ts[k] = s.upload(h, to=dev)
    hosts = finish_all(ts)
    ts.update({k: s.upload(h, to=dev) for k, h in hosts.items()})
    hosts = finish_all(ts)
    ts = {k: s.upload(h, to=dev) for k, h in hosts.items()}
    got = finish_values(ts)
    ts.clear()
    ts["z"] = s.upload(got[0], to=dev)
    hosts = finish_all(ts)
    print(sorted(hosts), len(got))
    s.close()


if __name__ == "__main__":
    main()
