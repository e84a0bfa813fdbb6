# Named buffers in a dict: one is read by its literal key before its upload is waited,
# and after a loop over .items() moved every buffer, one is read by key.
# RUN: raises UseAfterTransferError via-call
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
    total = float(bufs["bias"].read()[0])  # E: use-after-transfer "bias"
    bufs = {name: t.wait() for name, t in ups.items()}
    tw = s.upload(bufs["weights"], to=devs["weights"])
    total += float(bufs["weights"].read()[0])  # E: use-after-transfer "weights" "= tw.wait()"
    bufs["weights"] = tw.wait()
    s.close()
    return total


main()
