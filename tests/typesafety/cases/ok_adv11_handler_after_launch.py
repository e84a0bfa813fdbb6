# RUN: ok
# validate() (the program's code) raises ValidationError only after the buffer is back;
# between the upload and the take-back run only numbaxfer calls: a kernel launch, a
# download into another buffer, prints of plain values, a list append.
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 64


class ValidationError(Exception):
    pass


@cuda.jit
def scale(a: Any, factor: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor


def validate(h: Host, expect: float) -> None:
    got = float(h.read().sum())
    if got != expect:
        raise ValidationError(f"sum {got} != {expect}")


def main() -> None:
    s = nx.stream()
    host = nx.pinned_array(N, np.float32)
    out = nx.pinned_array(N, np.float32)
    dev = nx.device_array(N, np.float32)
    log: list[str] = []
    with host.write() as a:
        a[:] = 1.0
    try:
        up = s.upload(host, to=dev)
        log.append(up.label)
        s.launch(scale, 1, N, dev, 2.0)
        down = s.download(dev, into=out)
        print(f"queued {len(log)} transfers of {N} elements")
        host = up.wait()
        out = down.wait()
        validate(out, 3.0 * N)
    except ValidationError as e:
        print("validation failed:", e, float(host.read()[0]), float(out.read()[0]))
    s.close()


if __name__ == "__main__":
    main()
