# RUN: ok
"""Out-of-core saturating transform x/(1+x) of an array larger than the device window: the pinned
array is split into owned row chunks, streamed through two device windows on two
streams, written back in place and joined."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

WINDOW = 96
F32 = np.float32
Part = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def saturate_inplace(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] / (1.0 + a[i])


def window_for(size: int, cache: dict[int, list[nx.DeviceArray[nx.Owned, np.float32]]], slot: int) -> nx.DeviceArray[nx.Owned, np.float32]:
    if size not in cache:
        cache[size] = [nx.device_array(size, F32), nx.device_array(size, F32)]
    return cache[size][slot]


def main(total: int = 4 * WINDOW + 40) -> None:
    data = np.linspace(0.0, 9.0, total, dtype=F32)
    host = nx.pinned_copy(data)
    expected = float((data / (1.0 + data)).sum())
    checksum_in = float(host.read().sum())
    streams = [nx.stream(), nx.stream()]
    windows: dict[int, list[nx.DeviceArray[nx.Owned, np.float32]]] = {}
    parts = nx.split(host, chunk=WINDOW)
    back: list[nx.Transfer[Part]] = []
    for k, part in enumerate(parts):
        slot = k % 2
        s = streams[slot]
        if len(back) >= 2:
            parts[k - 2] = back[k - 2].wait()
        dev = window_for(part.size, windows, slot)
        up = s.upload(part, to=dev)
        s.launch(saturate_inplace, 2, 64, dev)
        back.append(s.download(dev, into=up))
    for k in range(max(0, len(back) - 2), len(back)):
        parts[k] = back[k].wait()
    host = nx.join(parts)
    got = float(host.read().sum())
    print(f"input sum {checksum_in:.3f}; output sum {got:.4f} (expected {expected:.4f})")
    assert abs(got - expected) < 1e-2
    for s in streams:
        s.close()


if __name__ == "__main__":
    main()
