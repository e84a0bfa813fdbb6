# Module globals shared by module-level functions, in the correct order: start() moves
# the staging buffer, finish() (directly, or through a helper) takes it back before
# anything reads it; a caller's local of the same name is another variable; a global
# that a method also rebinds is not followed (silence).
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]

N = 8
STREAM = nx.stream()
DEV = nx.device_array(N, np.float32)
STAGING = nx.pinned_array(N, np.float32)
PENDING: nx.Transfer[Host] | None = None
SPARE = nx.pinned_copy(np.zeros(N, np.float32))
SPARE_UP: nx.Transfer[Host] | None = None


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


def settle() -> None:
    finish()


def checksum() -> float:
    return float(STAGING.read().sum())


def size() -> int:
    return STAGING.shape[0]


def send_spare() -> None:
    global SPARE_UP
    SPARE_UP = STREAM.upload(SPARE, to=DEV)


def spare_total() -> float:
    return float(SPARE.read().sum())


class SpareKeeper:
    def take_back(self) -> None:
        global SPARE, SPARE_UP
        if SPARE_UP is not None:
            SPARE = SPARE_UP.wait()
            SPARE_UP = None


def shadow() -> float:
    STAGING = nx.pinned_copy(np.ones(N, np.float32))
    start(1.0)
    total = float(STAGING.read().sum())
    finish()
    return total


def main() -> list[float]:
    sums = []
    for v in (1.0, 2.0):
        start(v)
        n = size()
        finish()
        sums.append(checksum() / n)
    start(3.0)
    settle()
    sums.append(checksum())
    sums.append(shadow())
    send_spare()
    SpareKeeper().take_back()
    sums.append(spare_total())
    STREAM.close()
    assert sums == [1.0, 2.0, 24.0, 8.0, 0.0], sums
    return sums


main()
