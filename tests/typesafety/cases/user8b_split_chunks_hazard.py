# RUN: raises UseAfterTransferError
# Planted bug: the downloads reuse the original host_parts list instead of the parts the uploads handed back.
"""Normalise a signal on the GPU in four owned parts, one stream per part."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]
DevF = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


def fill_signal(host: HostF) -> None:
    with host.write() as view:
        view[:] = np.linspace(0.0, 1.0, host.size, dtype=np.float32)


def process_parts(host: HostF, dev: DevF, streams: list[nx.Stream[nx.Owned]]) -> tuple[HostF, DevF]:
    host_parts = nx.split(host, len(streams))
    dev_parts = nx.split(dev, len(streams))
    uploads: list[nx.Transfer[HostF]] = []
    for s, hp, dp in zip(streams, host_parts, dev_parts):
        uploads.append(s.upload(hp, to=dp))
        s.launch(scale, 1, 64, dp, 4.0)
    back = [t.wait() for t in uploads]
    downloads = [s.download(dp, into=hp) for s, dp, hp in zip(streams, dev_parts, host_parts)]  # E: use-after-transfer
    done = [t.wait() for t in downloads]
    return nx.join(done), nx.join(dev_parts)


def checksum(host: HostF) -> float:
    with host.lend() as view:
        return float(view.read().sum(dtype=np.float64))


def main(n: int = 512, parts: int = 4) -> NDArray[np.float32]:
    streams = [nx.stream() for _ in range(parts)]
    host = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    fill_signal(host)
    before = checksum(host)
    host, dev = process_parts(host, dev, streams)
    after = checksum(host)
    assert abs(after - 4.0 * before) < 1e-2, (before, after)
    result: NDArray[np.float32] = host.read().copy()
    dev.free()
    host.free()
    for s in streams:
        s.close()
    return result


if __name__ == "__main__":
    main()
