# RUN: raises UseAfterTransferError
# Planted bug: a SIGALRM handler (the program's code) raises StepTimeout at whatever
# statement runs when the timer fires: here the CPU work that overlaps the upload, while
# `host` is moved; the StepTimeout handler reads `host`.
from __future__ import annotations

import signal
from types import FrameType

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


class StepTimeout(Exception):
    pass


def on_alarm(signum: int, frame: FrameType | None) -> None:
    raise StepTimeout("CPU step over budget")


def main() -> None:
    s = nx.stream()
    host = nx.pinned_array(N, np.float32)
    dev = nx.device_array(N, np.float32)
    work = np.random.default_rng(0).random(4_000_000)
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 0.005)
    try:
        up = s.upload(host, to=dev)
        ranked = np.sort(work)
        host = up.wait()
        print("median", ranked[ranked.size // 2])
    except StepTimeout:
        print("timed out; last input", float(host.read().sum()))  # E: use-after-transfer
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
    s.close()


if __name__ == "__main__":
    main()
