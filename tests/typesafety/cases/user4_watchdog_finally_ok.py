# RUN: ok
# A download with a watchdog: the host polls done() until a deadline, does other work
# meanwhile, and a finally block makes sure the transfer is completed whatever happened
# (a timeout raised inside the try included).
from __future__ import annotations

import time

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 16


class DeadlineExceeded(RuntimeError):
    pass


def fetch_with_deadline(s: nx.Stream[nx.Lent], dev: nx.DeviceArray[nx.Owned, np.float32], out: Host, seconds: float) -> float:
    down = s.download(dev, into=out)
    try:
        deadline = time.monotonic() + seconds
        while not down.done():
            if time.monotonic() > deadline:
                raise DeadlineExceeded(f"download not done after {seconds} s")
            time.sleep(0.001)
        out = down.wait()
        return float(out.read().sum())
    finally:
        if not down.completed:
            out = down.wait()
        out.free()


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    src = nx.pinned_copy(np.ones(N, np.float32))
    src = s.upload(src, to=dev).wait()
    total = fetch_with_deadline(s, dev, nx.pinned_array(N, np.float32), 5.0)
    assert total == N
    print("fetched", total)
    s.close()


main()
