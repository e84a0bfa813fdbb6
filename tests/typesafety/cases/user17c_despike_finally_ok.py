# RUN: ok
"""Spike removal (clip to median +/- k * MAD) of signal blocks, GPU first, CPU fallback.

``despike_gpu`` starts the upload, computes the robust scale on the host while the
copy runs, then clips on the device. A block the robust scale rejects raises
``InvalidBlock`` between the upload and its wait; ``finally`` takes the staging buffer
back from the upload if it still holds it, then frees both buffers. The caller falls
back to a NaN-aware CPU version for such blocks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class InvalidBlock(ValueError):
    pass


@cuda.jit
def clip(x: Any, lo: float, hi: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        if x[i] < lo:
            x[i] = lo
        elif x[i] > hi:
            x[i] = hi


def robust_scale(x: NDArray[np.float32]) -> tuple[float, float]:
    if not np.isfinite(x).all():
        raise InvalidBlock("block has non-finite samples")
    med = float(np.median(x))
    mad = 1.4826 * float(np.median(np.abs(x - med)))
    if mad == 0.0:
        raise InvalidBlock("block is constant")
    return med, mad


def despike_gpu(x: NDArray[np.float32], s: nx.Stream[nx.Lent], k: float) -> NDArray[np.float32]:
    n = x.size
    dev = nx.device_array(n, np.float32)
    staging = nx.pinned_array(n, np.float32)
    up: nx.Transfer[Host] | None = None
    try:
        with staging.write() as a:
            a[:] = x
        up = s.upload(staging, to=dev)
        med, mad = robust_scale(x)  # host work overlapping the upload; may raise
        s.launch(clip, max(1, n // 256), 64, dev, med - k * mad, med + k * mad)
        staging = up.wait()
        up = None
        staging = s.download(dev, into=staging).wait()
        out: NDArray[np.float32] = staging.read().copy()
        return out
    finally:
        if up is not None:  # raised while the upload still owned staging
            staging = up.wait()
        staging.free()
        dev.free()


def despike_cpu(x: NDArray[np.float32], k: float) -> NDArray[np.float32]:
    finite = x[np.isfinite(x)]
    med = float(np.median(finite)) if finite.size else 0.0
    mad = 1.4826 * float(np.median(np.abs(finite - med))) if finite.size else 0.0
    y = np.where(np.isfinite(x), x, med).astype(np.float32)
    return np.clip(y, med - k * mad, med + k * mad).astype(np.float32)


def despike_all(blocks: list[NDArray[np.float32]], k: float) -> tuple[list[NDArray[np.float32]], int]:
    s = nx.stream()
    outs: list[NDArray[np.float32]] = []
    fallbacks = 0
    with s.lend() as ls:
        for b in blocks:
            try:
                outs.append(despike_gpu(b, ls, k))
            except InvalidBlock:
                fallbacks += 1
                outs.append(despike_cpu(b, k))
    s.close()
    return outs, fallbacks


def main() -> None:
    rng = np.random.default_rng(13)
    n, k = 256, 3.0
    blocks = [rng.standard_normal(n).astype(np.float32) for _ in range(4)]
    blocks[0][[10, 50, 200]] = [40.0, -35.0, 25.0]
    blocks[2][77] = np.nan
    blocks[3][:] = 1.0
    outs, fallbacks = despike_all(blocks, k)
    assert fallbacks == 2, fallbacks
    for b, y in zip(blocks, outs):
        assert np.isfinite(y).all()
        assert np.abs(y).max() < 10.0
    med = float(np.median(blocks[1]))
    mad = 1.4826 * float(np.median(np.abs(blocks[1] - med)))
    assert np.allclose(outs[1], np.clip(blocks[1], med - k * mad, med + k * mad))
    assert np.all(outs[3] == 1.0)
    print(f"despike_finally: right, {len(outs)} blocks, {fallbacks} on the CPU fallback")


if __name__ == "__main__":
    main()
