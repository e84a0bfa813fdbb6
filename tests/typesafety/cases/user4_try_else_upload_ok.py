# An upload with try/except/else: the except branch handles a refused upload (the
# stream was closed: nothing moved, the buffer is still the caller's), the else branch
# takes the buffer back from the transfer; both paths leave it usable.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


def try_upload(s: nx.Stream[nx.Lent], buf: Host, dev: nx.DeviceArray[nx.Owned, np.float32]) -> tuple[Host, bool]:
    try:
        up = s.upload(buf, to=dev)
    except nx.StreamClosedError:
        sent = False
    else:
        buf = up.wait()
        sent = True
    print(f"{'sent' if sent else 'kept'} {buf.nbytes} bytes, first={buf.read()[0]}")
    return buf, sent


def main() -> None:
    dev = nx.device_array(N, np.float32)
    buf = nx.pinned_copy(np.full(N, 2.0, np.float32))
    live, dead = nx.stream(), nx.stream()
    dead.close()
    buf, ok1 = try_upload(live, buf, dev)
    buf, ok2 = try_upload(dead, buf, dev)
    assert (ok1, ok2) == (True, False)
    live.close()


main()
