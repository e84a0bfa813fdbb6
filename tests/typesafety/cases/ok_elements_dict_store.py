# Named buffers in a dict moved through .items() and stored back by name in a loop over
# the transfers; then all moved through .values() and taken back by a dict
# comprehension. Every buffer is usable again.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main() -> float:
    s = nx.stream()
    bufs: dict[str, Host] = {
        "weights": nx.pinned_array(16, np.float32),
        "bias": nx.pinned_array(16, np.float32),
    }
    devs = {name: nx.device_array(16, np.float32) for name in bufs}
    ups: dict[str, nx.Transfer[Host]] = {}
    for name, buf in bufs.items():
        ups[name] = s.upload(buf, to=devs[name])
    for name, t in ups.items():
        bufs[name] = t.wait()
    total = float(bufs["bias"].read()[0])
    for buf in bufs.values():
        total += float(buf.read()[0])
    again = {name: s.upload(bufs[name], to=devs[name]) for name in bufs}
    bufs = {name: t.wait() for name, t in again.items()}
    s.close()
    return total + float(bufs["weights"].read()[0])


main()
