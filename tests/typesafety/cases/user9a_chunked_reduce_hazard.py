# RUN: raises UseAfterTransferError
# Planted bug: the partial sums are read from the host parts before the chained downloads that own them are waited (the wait comprehension was moved below the sums).
"""Sum a large host signal in chunks split across several streams."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def square_inplace(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * a[i]


def fill_signal(host: Host, seed: int) -> None:
    rng = np.random.default_rng(seed)
    with host.write() as a:
        a[:] = rng.standard_normal(host.size).astype(np.float32)


def energy(host: Host, dev: Dev, streams: list[nx.Stream[nx.Owned]]) -> tuple[Host, Dev, float]:
    """Upload each chunk on its own stream, square it there, and bring it back."""
    host_parts = nx.split(host, len(streams))
    dev_parts = nx.split(dev, len(streams))
    uploads = [s.upload(h, to=d) for s, h, d in zip(streams, host_parts, dev_parts)]
    for s, d in zip(streams, dev_parts):
        s.launch(square_inplace, 1, 32, d)
    back = [s.download(d, into=t) for s, d, t in zip(streams, dev_parts, uploads)]
    partial = [float(h.read().sum(dtype=np.float64)) for h in host_parts]  # E: use-after-transfer
    host_parts = [t.wait() for t in back]
    return nx.join(host_parts), nx.join(dev_parts), sum(partial)


def main() -> None:
    n = 4 * 96 + 17
    streams = [nx.stream() for _ in range(4)]
    host: Host = nx.pinned_array(n, np.float32)
    dev: Dev = nx.device_array(n, np.float32)
    fill_signal(host, 11)
    reference = float((host.read().astype(np.float64) ** 2).sum())
    host, dev, total = energy(host, dev, streams)
    assert abs(total - reference) < 1e-3 * reference, (total, reference)
    assert np.all(host.read() >= 0.0)
    dev.free()
    for s in streams:
        s.close()
    print(f"signal energy {total:.3f}")


if __name__ == "__main__":
    main()
