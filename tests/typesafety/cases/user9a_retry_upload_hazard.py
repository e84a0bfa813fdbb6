# RUN: raises UseAfterTransferError
# Planted bug: on a retry the raw frame is restored into host after the next attempt's upload has already taken host (the restore was moved to the top of the loop, after the upload call).
"""Upload sensor frames with a bounded retry when validation of the result fails."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def calibrate(a: Any, gain: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * gain


class FlakyCheck(Exception):
    pass


def check(result: NDArray[np.float32], attempt: int) -> None:
    if attempt == 0 and result.size > 32:
        raise FlakyCheck("first readback is always distrusted")


def upload_with_retry(frame: NDArray[np.float32], s: nx.Stream[nx.Lent], retries: int = 3) -> float:
    dev: Dev = nx.device_array(frame.size, np.float32)
    host: Host = nx.pinned_copy(frame)
    total: float | None = None
    for attempt in range(retries):
        up = s.upload(host, to=dev)
        if attempt > 0:
            with host.write() as a:  # E: use-after-transfer
                a[:] = frame
        s.launch(calibrate, 1, 64, dev, 1.5)
        down = s.download(dev, into=up)
        host = down.wait()
        try:
            check(host.read(), attempt)
        except FlakyCheck:
            continue
        total = float(host.read().sum())
        break
    host.free()
    dev.free()
    if total is None:
        raise RuntimeError("calibration kept failing")
    return total


def main() -> None:
    s = nx.stream()
    frame = np.linspace(0.0, 1.0, 64, dtype=np.float32)
    total = upload_with_retry(frame, s)
    assert abs(total - 1.5 * float(frame.sum())) < 1e-4
    s.close()
    print(f"calibrated sum {total:.4f}")


if __name__ == "__main__":
    main()
