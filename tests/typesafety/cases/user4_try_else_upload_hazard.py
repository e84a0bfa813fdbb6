# An upload with try/except/else: the except branch handles a refused upload (the
# stream was closed: nothing moved, the buffer is still the caller's), the else branch
# takes the buffer back from the transfer; both paths leave it usable. The bug: a log
# line inside the try reads the buffer the upload has just taken.
# (Lines 27 and 28 are reported too: the planted read inside the try may, to the
# checker, raise StreamClosedError after the upload took buf; accepted as conservative.)
# RUN: raises UseAfterTransferError
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


def try_upload(s: nx.Stream[nx.Lent], buf: Host, dev: nx.DeviceArray[nx.Owned, np.float32]) -> tuple[Host, bool]:
    try:
        up = s.upload(buf, to=dev)
        print(f"queued {buf.nbytes} bytes, first={buf.read()[0]}")  # E: use-after-transfer "buf" "buf = up.wait()"
    except nx.StreamClosedError:
        sent = False
    else:
        buf = up.wait()
        sent = True
    print(f"{'sent' if sent else 'kept'} {buf.nbytes} bytes, first={buf.read()[0]}")  # E: use-after-transfer "buf" "may be used"
    return buf, sent  # E: use-after-transfer "buf" "may be used"


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
