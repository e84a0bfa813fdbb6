# nx.pinned around a download whose wait() comes after the block: the block ends (and
# would unpin the memory) while the copy still writes it.
# RUN: raises UnfinishedTransferError via-call
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx


def fetch(dev: nx.DeviceArray[nx.Owned, np.float32], s: nx.Stream[nx.Owned]) -> NDArray[np.float32]:
    out = np.empty(dev.shape, np.float32)
    with nx.pinned(out) as h:  # E: unfinished-transfer "down"
        down = s.download(dev, into=h)
    h = down.wait()
    return out


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    host = nx.pinned_array(16, np.float32)
    host = s.upload(host, to=dev).wait()
    got = fetch(dev, s)
    s.close()
    return float(got.sum()) + float(host.read()[0])


main()
