# A module global moved by one module-level function and read, through a helper that
# calls another, by a third function before the take-back: the reads and moves of
# module functions are transitive.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]

STREAM = nx.stream()
DEV = nx.device_array(4, np.float32)
BUF = nx.pinned_copy(np.ones(4, np.float32))
UP: nx.Transfer[Host] | None = None


def send() -> None:
    global UP
    UP = STREAM.upload(BUF, to=DEV)


def kick() -> None:
    send()


def peek() -> float:
    return float(BUF.read()[0])


def report() -> str:
    return f"first={peek()}"


def main() -> str:
    kick()
    return report()  # E: use-after-transfer "BUF" "report()"


main()
