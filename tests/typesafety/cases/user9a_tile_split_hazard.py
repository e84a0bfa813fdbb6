# RUN: raises UseAfterTransferError via-call
# Planted bug: the page is rejoined before the per-band means are taken, so band_means() reads band handles that nx.join has already consumed.
"""Process the top and bottom bands of a scanned page on two streams, then rejoin it."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def invert(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 1.0 - a[i]


def band_means(bands: list[Host]) -> list[float]:
    return [float(b.read().mean()) for b in bands]


def process_page(page: Host, dev: Dev, streams: list[nx.Stream[nx.Owned]], header_rows: int) -> tuple[Host, Dev, list[float]]:
    bounds = [0, header_rows, page.shape[0]]
    bands = nx.split(page, bounds=bounds)
    dbands = nx.split(dev, bounds=bounds)
    ups = [s.upload(h, to=d) for s, h, d in zip(streams, bands, dbands)]
    for s, d in zip(streams, dbands):
        s.launch(invert, 1, 64, d)
    downs = [s.download(d, into=u) for s, d, u in zip(streams, dbands, ups)]
    bands = [t.wait() for t in downs]
    page = nx.join(bands)
    means = band_means(bands)  # E: use-after-transfer
    dev = nx.join(dbands)
    return page, dev, means


def main() -> None:
    rows = 96
    page: Host = nx.pinned_array(rows, np.float32)
    with page.write() as a:
        a[:] = np.linspace(0.0, 1.0, rows, dtype=np.float32)
    original = page.read().copy()
    dev: Dev = nx.device_array(rows, np.float32)
    streams = [nx.stream(), nx.stream()]
    page, dev, means = process_page(page, dev, streams, header_rows=24)
    assert np.allclose(page.read(), 1.0 - original)
    assert abs(means[0] - float((1.0 - original[:24]).mean())) < 1e-6
    dev.free()
    for s in streams:
        s.close()
    print("band means after invert:", [round(m, 4) for m in means])


if __name__ == "__main__":
    main()
