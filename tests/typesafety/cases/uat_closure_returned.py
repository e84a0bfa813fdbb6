# Closures returned while a variable they read is moved: they run after the function
# returned, and see the variable as it was left. Reported at the read in the closure.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def finisher(s: nx.Stream[nx.Lent], dev: Dev) -> Callable[[], float]:
    out = nx.pinned_array(dev.shape, np.float32)
    down = s.download(dev, into=out)

    def finish() -> float:
        down.wait()
        return float(out.read()[0])  # E: use-after-transfer "read by the closure \"finish()\" returned at line 25" "is used"

    return finish


def peeker(s: nx.Stream[nx.Lent], dev: Dev) -> tuple[nx.Transfer[Host], Callable[[], float]]:
    out = nx.pinned_array(dev.shape, np.float32)
    down = s.download(dev, into=out)
    return down, lambda: float(out.read()[0])  # E: use-after-transfer "a lambda" "is used"


def maybe_eager(s: nx.Stream[nx.Lent], dev: Dev, eager: bool) -> Callable[[], float]:
    out = nx.pinned_array(dev.shape, np.float32)
    down = s.download(dev, into=out)
    if eager:
        out = down.wait()

    def read() -> float:
        if not eager:
            down.wait()
        return float(out.read()[0])  # E: use-after-transfer "may be used"

    return read


@dataclass
class Job:
    host: Host
    dev: Dev


def job_reader(s: nx.Stream[nx.Lent], job: Job) -> tuple[nx.Transfer[Host], Callable[[], float]]:
    up = s.upload(job.host, to=job.dev)
    return up, (lambda: float(job.host.read()[0]))  # E: use-after-transfer "\"job.host\""


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    s.upload_staged(np.ones(8, dtype=np.float32), to=dev).wait()
    finisher(s, dev)()


if __name__ == "__main__":
    main()
