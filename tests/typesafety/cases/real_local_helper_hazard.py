# Local helpers that close over the stream and device array: the buffer is read after
# a lambda that uploads it, and after a nested def with an nx.Consumed parameter took it.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from collections.abc import Callable

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)

    def send(buf: nx.Consumed[Host]) -> nx.Transfer[Host]:
        return s.upload(buf, to=dev)

    quick: Callable[[Host], nx.Transfer[Host]] = lambda b: s.upload(b, to=dev)
    host = nx.pinned_array(16, np.float32)
    t = quick(host)
    total = float(host.read()[0])  # E: use-after-transfer "host" "host = t.wait()"
    host = t.wait()
    t = send(host)
    total += float(host.read()[0])  # E: use-after-transfer "host" "send()"
    host = t.wait()
    s.close()
    return total


main()
