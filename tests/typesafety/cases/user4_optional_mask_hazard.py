# An optional upload: a kernel runs with a mask only when the caller passes one; the
# mask's upload is started only then (a ternary), and the mask is taken back only when
# there was an upload. The data buffer goes up every time. The bug: the kept-count is
# computed from the mask before the optional take-back.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 16


@cuda.jit
def apply_mask(data: Any, mask: Any) -> None:
    i = cuda.grid(1)
    if i < data.size:
        data[i] *= mask[i]


def process(s: nx.Stream[nx.Lent], data: Host, mask: Host, use_mask: bool) -> tuple[Host, Host, float]:
    d_data = nx.device_array(N, np.float32)
    d_mask = nx.device_array(N, np.float32)
    up = s.upload(data, to=d_data)
    mup = s.upload(mask, to=d_mask) if use_mask else None
    kept = float(mask.read().sum())  # E: use-after-transfer "mask" "may be used"
    if mup is not None:
        s.launch(apply_mask, 1, N, d_data, d_mask)
        mask = mup.wait()
    data = up.wait()
    data = s.download(d_data, into=data).wait()
    return data, mask, kept


def main() -> None:
    s = nx.stream()
    data = nx.pinned_copy(np.ones(N, np.float32))
    mask = nx.pinned_copy((np.arange(N) % 2).astype(np.float32))
    data, mask, kept = process(s, data, mask, use_mask=False)
    assert float(data.read().sum()) == N
    data, mask, kept = process(s, data, mask, use_mask=True)
    assert float(data.read().sum()) == kept == N // 2
    print("masked sum", data.read().sum())
    s.close()


main()
