# Loading model weights: small tensors go up through upload_staged() (one host copy into
# a reused staging buffer, the numpy array is free at once, no wait needed), big ones
# through a temporary pinned copy, freed as soon as its upload has finished to give the
# page-locked memory back. Correct: each pinned copy is freed after its upload's wait().
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
BIG = 64  # elements; the real threshold would be megabytes


def load(s: nx.Stream[nx.Owned], weights: dict[str, NDArray[np.float32]]) -> dict[str, Dev]:
    on_device: dict[str, Dev] = {}
    big: list[tuple[str, nx.Transfer[Host]]] = []
    for name, w in weights.items():
        dev = nx.device_array(w.shape, np.float32)
        on_device[name] = dev
        if w.size < BIG:
            s.upload_staged(w, to=dev)
        else:
            big.append((name, s.upload(nx.pinned_copy(w), to=dev)))
    for name, up in big:
        staging = up.wait()
        print(f"{name}: {staging.nbytes} bytes uploaded")
        staging.free()
    return on_device


def check(s: nx.Stream[nx.Owned], dev: Dev) -> float:
    out = s.download(dev, into=nx.pinned_array(dev.shape, np.float32)).wait()
    return float(out.read().sum())


def main() -> None:
    s = nx.stream()
    weights = {
        "embed": np.ones(128, dtype=np.float32),
        "bias": np.full(8, 0.5, dtype=np.float32),
        "proj": np.full(96, 2.0, dtype=np.float32),
    }
    devs = load(s, weights)
    sums = {name: check(s, dev) for name, dev in devs.items()}
    s.close()
    assert sums == {"embed": 128.0, "bias": 4.0, "proj": 192.0}, sums


main()
