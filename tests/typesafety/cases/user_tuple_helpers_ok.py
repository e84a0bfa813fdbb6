# Checkpoint export in the style of a larger code base: start_export() consumes a
# buffer and returns (transfer, nbytes), fetch = functools.partial(s.download, dev)
# binds the device source, the waits of several layers are zipped back into a dict by
# name, and an optional pending upload is taken back with a conditional expression.
# RUN: ok
from __future__ import annotations

import functools

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def start_export(buf: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: Dev) -> tuple[nx.Transfer[Host], int]:
    nbytes = buf.nbytes
    return s.download(dev, into=buf), nbytes


def export(names: list[str], n: int, warm: bool) -> tuple[dict[str, float], int]:
    s = nx.stream()
    devs = {name: nx.device_array(n, np.float32) for name in names}
    seed = nx.pinned_copy(np.arange(n, dtype=np.float32))
    up: nx.Transfer[Host] | None = s.upload(seed, to=devs[names[0]]) if warm else None
    seed = up.wait() if up is not None else seed
    pending: list[nx.Transfer[Host]] = []
    total_bytes = 0
    for name in names:
        t, nbytes = start_export(nx.pinned_array(n, np.float32), s, devs[name])
        pending.append(t)
        total_bytes += nbytes
    homes = {name: t.wait() for name, t in zip(names, pending)}
    fetch = functools.partial(s.download, devs[names[0]])
    first = fetch(into=seed).wait()
    sums = {name: float(h.read().sum()) for name, h in homes.items()}
    sums["first"] = float(first.read().sum())
    s.close()
    return sums, total_bytes


def main() -> dict[str, float]:
    sums, nbytes = export(["a", "b"], 8, True)
    assert nbytes == 64 and sums["first"] == 28.0 and sums["a"] == 28.0, (sums, nbytes)
    sums2, _ = export(["a"], 8, False)
    return sums2


main()
