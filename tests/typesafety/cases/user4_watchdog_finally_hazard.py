# XFAIL: miss (documented silence): the transfer "down" (line 24) is left unfinished on the deadline path, where the finally skips the take-back (done() is False) and out.free() raises: a transfer pending as an exception leaves the function is not reported (docs/static-checker.md, exceptional paths). The use-after-transfer at line 36 is found. No RUN header: on the simulator every copy is done at once, so the hazard does not show there
# A download with a watchdog: the host polls done() until a deadline, does other work
# meanwhile, and a finally block makes sure the transfer is completed whatever happened
# (a timeout raised inside the try included). The bug: the finally block guards the
# take-back with done() ("has it finished?") instead of completed, so when the copy is
# still running the buffer is freed while the download owns it.
from __future__ import annotations

import time

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 16


class DeadlineExceeded(RuntimeError):
    pass


def fetch_with_deadline(s: nx.Stream[nx.Lent], dev: nx.DeviceArray[nx.Owned, np.float32], out: Host, seconds: float) -> float:
    down = s.download(dev, into=out)  # E: unfinished-transfer "down"
    try:
        deadline = time.monotonic() + seconds
        while not down.done():
            if time.monotonic() > deadline:
                raise DeadlineExceeded(f"download not done after {seconds} s")
            time.sleep(0.001)
        out = down.wait()
        return float(out.read().sum())
    finally:
        if down.done() and not down.completed:
            out = down.wait()
        out.free()  # E: use-after-transfer "out" "may be used"


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
