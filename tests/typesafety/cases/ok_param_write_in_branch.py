# RUN: ok
# A helper that rescales a buffer in place only when the factor is not 1. Called
# inside the buffer's lend with factor 1.0 it never writes. Correct. (The same shape
# on an attribute, `if self.dirty:`, is left alone by the checker.)
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


def rescale(buf: Host, factor: float) -> None:
    if factor != 1.0:
        with buf.write() as a:
            a *= factor


def main() -> None:
    host = nx.pinned_copy(np.ones(N, np.float32))
    with host.lend() as v:
        peak = float(v.read().max())
        rescale(host, 1.0 / peak)  # peak is 1.0: nothing written
    rescale(host, 2.0)
    print(host.read())
    host.free()


main()
