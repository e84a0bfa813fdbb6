# Module-level state, as scripts and notebooks keep it: one staging buffer and the
# pending upload in module globals; start() moves the buffer into an upload, finish()
# takes it back through `global`, and checksum() reads it only after finish().
# Bug: checksum() is called between start() and finish(), while the upload owns STAGING.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]

N = 16
STREAM = nx.stream()
DEV = nx.device_array(N, np.float32)
STAGING = nx.pinned_array(N, np.float32)
PENDING: nx.Transfer[Host] | None = None


def start(value: float) -> None:
    global PENDING
    with STAGING.write() as a:
        a[:] = value
    PENDING = STREAM.upload(STAGING, to=DEV)


def finish() -> None:
    global STAGING, PENDING
    if PENDING is not None:
        STAGING = PENDING.wait()
        PENDING = None


def checksum() -> float:
    return float(STAGING.read().sum())


def main() -> list[float]:
    sums = []
    for v in (1.0, 2.0):
        start(v)
        sums.append(checksum())  # E: use-after-transfer "STAGING"
        finish()
    STREAM.close()
    assert sums == [16.0, 32.0], sums
    return sums


main()
