# Images arrive as ordinary numpy arrays from a decoder; a batch is pinned in place
# (nx.pinned, numba's cuda.pinned) for the copies: the input is uploaded, blurred by a
# kernel, and the result downloaded into a second numpy array pinned in the same block.
# Both transfers complete inside the block; an image of the wrong size is skipped.
# Bug: the download's wait() was moved below the block, which ends (and would unpin
# `out`) while the copy still writes it.
# RUN: raises UnfinishedTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def blur(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    n = src.size
    if i < n:
        left = src[i - 1] if i > 0 else src[i]
        right = src[i + 1] if i + 1 < n else src[i]
        dst[i] = (left + src[i] + right) / 3.0


def blur_all(images: list[NDArray[np.float32]], n: int) -> list[NDArray[np.float32]]:
    s = nx.stream()
    d_in = nx.device_array(n, np.float32)
    d_out = nx.device_array(n, np.float32)
    results: list[NDArray[np.float32]] = []
    for img in images:
        if img.shape != (n,):
            continue
        out = np.empty_like(img)
        with nx.pinned(img, out) as (h_in, h_out):  # E: unfinished-transfer "down"
            up = s.upload(h_in, to=d_in)
            s.launch(blur, 1, n, d_in, d_out)
            down = s.download(d_out, into=h_out)
            h_in = up.wait()
        h_out = down.wait()
        results.append(out)
    s.close()
    return results


def main(n: int = 16) -> float:
    images = [np.full(n, 3.0, dtype=np.float32), np.zeros(3, np.float32), np.arange(n, dtype=np.float32)]
    out = blur_all(images, n)
    assert len(out) == 2
    assert np.allclose(out[0], 3.0)
    return float(out[1].sum())


main()
