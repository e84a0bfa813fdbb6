# A statistics pass under a lend, with the normalisation done afterwards: a helper
# reads min/max through the lent view; the owner is normalised in place by another
# helper once the lend block has ended, then uploaded. The bug: the normalise call was
# indented into the lend block, so the helper writes the owner while it is lent.
# RUN: raises BorrowError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
N = 16


def value_range(v: View) -> tuple[float, float]:
    a = v.read()
    return float(a.min()), float(a.max())


def normalise(buf: Host, lo: float, hi: float) -> None:
    with buf.write() as a:
        a[:] = (a - lo) / (hi - lo)


def main() -> None:
    s = nx.stream()
    buf = nx.pinned_copy(np.linspace(-3, 5, N, dtype=np.float32))
    with buf.lend() as view:
        lo, hi = value_range(view)
        normalise(buf, lo, hi)  # E: owner-borrowed "buf"
        print("normalised, first value", view.read()[0])
    dev = nx.device_array(N, np.float32)
    buf = s.upload(buf, to=dev).wait()
    assert float(buf.read()[0]) == 0.0 and float(buf.read()[-1]) == 1.0
    print("range", lo, hi)
    s.close()


main()
