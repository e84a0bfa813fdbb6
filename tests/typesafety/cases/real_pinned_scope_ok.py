# nx.pinned around upload -> device copy -> download of numpy arrays: every transfer is
# waited inside the block, so the memory is unpinned only after the copies. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx


def round_trip(a: NDArray[np.float32], b: NDArray[np.float32], s: nx.Stream[nx.Owned]) -> None:
    d_in = nx.device_array(a.shape, np.float32)
    d_out = nx.device_array(a.shape, np.float32)
    with nx.pinned(a, b) as (ha, hb):
        up = s.upload(ha, to=d_in)
        s.copy(d_in, to=d_out)
        down = s.download(d_out, into=hb)
        ha = up.wait()
        hb = down.wait()
        print(float(hb.read()[0]))
    d_in.free()
    d_out.free()


def main() -> float:
    s = nx.stream()
    a = np.arange(16, dtype=np.float32)
    b = np.zeros(16, dtype=np.float32)
    round_trip(a, b, s)
    with nx.pinned(a) as h:
        t = s.upload(h, to=nx.device_array(16, np.float32))
        h = t.wait()
    s.close()
    return float(b.sum())


main()
