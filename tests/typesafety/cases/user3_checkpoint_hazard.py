# Checkpoint saving: every layer's weights are downloaded into a numpy array pinned in
# place (no extra pinned copy), waited inside the pinned block, and the arrays are
# written with np.save once all are home.
# The bug: to overlap the downloads, the waits were moved after the loop, so each pinned
# block ends while its download still writes the pages.
# RUN: raises UnfinishedTransferError
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def init_layer(w: Any, scale: float) -> None:
    for i in range(cuda.grid(1), w.size, cuda.gridsize(1)):
        w[i] = scale * i


def save_checkpoint(s: nx.Stream[nx.Owned], weights: dict[str, Dev], path: Path) -> None:
    arrays: dict[str, NDArray[np.float32]] = {
        name: np.empty(dev.shape, np.float32) for name, dev in weights.items()
    }
    downs: list[nx.Transfer[nx.PinnedArray[nx.Owned, np.float32]]] = []
    for name, dev in weights.items():
        with nx.pinned(arrays[name]) as h:  # E: unfinished-transfer "unfinished"
            downs.append(s.download(dev, into=h))
    for down in downs:
        down.wait()
    path.mkdir(exist_ok=True)
    for name, arr in arrays.items():
        np.save(path / f"{name}.npy", arr)


def load_checkpoint(path: Path) -> dict[str, NDArray[np.float32]]:
    return {p.stem: np.load(p) for p in sorted(path.glob("*.npy"))}


def main() -> None:
    s = nx.stream()
    sizes = {"embed": 48, "hidden": 32, "head": 16}
    weights = {name: nx.device_array(n, np.float32) for name, n in sizes.items()}
    for k, dev in enumerate(weights.values()):
        s.launch(init_layer, 1, 32, dev, float(k + 1))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ckpt"
        save_checkpoint(s, weights, path)
        loaded = load_checkpoint(path)
    s.close()
    for k, (name, n) in enumerate(sizes.items()):
        assert np.array_equal(loaded[name], (k + 1) * np.arange(n, dtype=np.float32)), name


if __name__ == "__main__":
    main()
