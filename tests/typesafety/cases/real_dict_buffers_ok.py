# Named buffers in a dict (inputs by name): each is uploaded and taken back by its
# literal key, then all are read through .items(). Correct.
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
    tw = s.upload(bufs["weights"], to=devs["weights"])
    tb = s.upload(bufs["bias"], to=devs["bias"])
    bufs["weights"] = tw.wait()
    bufs["bias"] = tb.wait()
    total = 0.0
    for name, buf in bufs.items():
        total += float(buf.read().sum()) + len(name)
    ups = {name: s.upload(buf, to=devs[name]) for name, buf in bufs.items()}
    bufs = {name: t.wait() for name, t in ups.items()}
    s.close()
    return total + float(bufs["bias"].read()[0])


main()
