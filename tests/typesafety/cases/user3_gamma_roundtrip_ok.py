# Gamma correction of a batch of images, one pinned buffer per image used for the whole
# round trip: upload, kernel in place on the device, and a chained download into the
# same buffer (download(into=upload): no host wait between the two copies).
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def gamma(a: Any, g: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] ** g


def correct_all(images: list[NDArray[np.float32]], g: float) -> list[NDArray[np.float32]]:
    s = nx.stream()
    devs = [nx.device_array(img.size, np.float32) for img in images]
    round_trips: list[nx.Transfer[Host]] = []
    for img, dev in zip(images, devs):
        host = nx.pinned_copy(img.reshape(-1))
        up = s.upload(host, to=dev)
        s.launch(gamma, 1, 64, dev, g)
        round_trips.append(s.download(dev, into=up))  # takes over the upload's buffer
    results = []
    for img, trip in zip(images, round_trips):
        host = trip.wait()
        results.append(host.read().reshape(img.shape).copy())
    s.close()
    return results


def main() -> None:
    rng = np.random.default_rng(3)
    images = [rng.random((4, 8)).astype(np.float32) for _ in range(3)]
    out = correct_all(images, 2.2)
    for img, res in zip(images, out):
        assert np.allclose(res, img**2.2, rtol=1e-5)


if __name__ == "__main__":
    main()
