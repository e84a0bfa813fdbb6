# Named outputs fetched with dict comprehensions: one download per named device
# buffer, started all at once, then a second comprehension completes them into a dict
# of host buffers that the report reads.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 4


def upload_named(s: nx.Stream[nx.Lent], values: dict[str, float]) -> dict[str, Dev]:
    devs: dict[str, Dev] = {}
    for name, v in values.items():
        devs[name] = nx.device_array(N, np.float32)
        src = nx.pinned_copy(np.full(N, v, np.float32))
        src = s.upload(src, to=devs[name]).wait()
    return devs


def fetch_named(s: nx.Stream[nx.Lent], devs: dict[str, Dev]) -> dict[str, Host]:
    outs = {name: nx.pinned_array(N, np.float32) for name in devs}
    pending = {name: s.download(dev, into=outs.pop(name)) for name, dev in devs.items()}
    return {name: t.wait() for name, t in pending.items()}


def main() -> None:
    s = nx.stream()
    devs = upload_named(s, {"loss": 0.5, "acc": 0.9})
    hosts = fetch_named(s, devs)
    report = {name: float(h.read()[0]) for name, h in hosts.items()}
    assert report == {"loss": 0.5, "acc": np.float32(0.9)}, report
    print(report)
    s.close()


main()
