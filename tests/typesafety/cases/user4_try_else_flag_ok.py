# RUN: ok
# The same refused-upload handling written with a flag: "sent" records whether the
# upload was accepted, other work runs, and the buffer is taken back only if it was
# sent (a refused upload moved nothing). Correct on both paths.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


def try_upload(s: nx.Stream[nx.Lent], buf: Host, dev: nx.DeviceArray[nx.Owned, np.float32]) -> tuple[Host, bool]:
    sent = False
    try:
        up = s.upload(buf, to=dev)
        sent = True
    except nx.StreamClosedError:
        print("stream closed, keeping the buffer")
    scratch = np.zeros(N, np.float32)  # other host work while the copy runs
    if sent:
        buf = up.wait()
    print(f"{'sent' if sent else 'kept'} {buf.nbytes} bytes, first={buf.read()[0] + scratch[0]}")
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
