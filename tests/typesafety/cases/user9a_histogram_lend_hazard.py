# RUN: raises BorrowError via-call
# Planted bug: normalize() (which writes the image) is called inside the image's own lend block, next to the histogram of the lent view.
"""Compute intensity histograms of an image on the host while it is lent to a reporter."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
LentHost = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def gamma(a: Any, g: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] ** g


def histogram(view: LentHost, bins: int) -> list[int]:
    counts, _ = np.histogram(view.read(), bins=bins, range=(0.0, 1.0))
    return [int(c) for c in counts]


def normalize(img: Host) -> None:
    with img.write() as a:
        lo, hi = float(a.min()), float(a.max())
        a[:] = (a - lo) / (hi - lo)


def process(img: Host, s: nx.Stream[nx.Lent]) -> tuple[Host, list[int], list[int]]:
    dev = nx.device_array(img.size, np.float32)
    with img.lend() as view:
        before = histogram(view, 4)
        normalize(img)  # E: owner-borrowed
    img = s.upload(img, to=dev).wait()
    s.launch(gamma, 1, 64, dev, 2.0)
    img = s.download(dev, into=img).wait()
    with img.lend() as view:
        after = histogram(view, 4)
    dev.free()
    return img, before, after


def main() -> None:
    s = nx.stream()
    img = nx.pinned_copy(np.linspace(0.2, 0.8, 64, dtype=np.float32))
    img, before, after = process(img, s)
    assert sum(before) == 64 and sum(after) == 64
    assert abs(float(img.read().max()) - 1.0) < 1e-6
    s.close()
    print("before", before, "after", after)


if __name__ == "__main__":
    main()
