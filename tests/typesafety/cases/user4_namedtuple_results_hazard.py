# Downloads return NamedTuple results carrying the transfer and its metadata; the
# consumer completes each one and records what it got. The bug: a "make sure
# everything landed" loop at the end waits every result's transfer a second time.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import NamedTuple

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 16


class Fetch(NamedTuple):
    transfer: nx.Transfer[Host]
    key: str
    nbytes: int


def fetch(s: nx.Stream[nx.Lent], dev: nx.DeviceArray[nx.Owned, np.float32], key: str) -> Fetch:
    out = nx.pinned_array(dev.shape, np.float32)
    down = s.download(dev, into=out)
    return Fetch(down, key, dev.nbytes)


def main() -> None:
    s = nx.stream()
    devs: dict[str, nx.DeviceArray[nx.Owned, np.float32]] = {}
    for i, key in enumerate(("loss", "grad", "step")):
        src = nx.pinned_copy(np.full(N, float(i), np.float32))
        devs[key] = nx.device_array(N, np.float32)
        src = s.upload(src, to=devs[key]).wait()
    pending = [fetch(s, dev, key) for key, dev in devs.items()]
    totals: dict[str, float] = {}
    for res in pending:
        host = res.transfer.wait()
        totals[res.key] = float(host.read().sum())
        print(f"{res.key}: {res.nbytes} bytes")
    for res in pending:
        res.transfer.wait()  # E: transfer-completed-twice
    assert totals == {"loss": 0.0, "grad": 16.0, "step": 32.0}
    s.close()


main()
