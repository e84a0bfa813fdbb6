# Upload, launch, then validate the device result; a failed validation raises, the
# handler logs the offending input (after taking the buffer back), and the finally
# block completes the upload on every path with `if not up.completed`.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def sqrt_inplace(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] ** 0.5


class ValidationError(Exception):
    pass


def check(values: list[float]) -> None:
    if any(v < 0 for v in values):
        raise ValidationError("negative input")


def run(values: list[float], log: list[str]) -> float | None:
    n = len(values)
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_copy(np.asarray(values, dtype=np.float32))
    up = s.upload(host, to=dev)
    result: float | None = None
    try:
        s.launch(sqrt_inplace, 1, n, dev)
        check(values)
        out = nx.pinned_array(n, np.float32)
        out = s.download(dev, into=out).wait()
        result = float(out.read().sum())
    except ValidationError as e:
        host = up.wait()
        log.append(f"{e}: first values {host.read()[:2].tolist()}")
    finally:
        if not up.completed:
            host = up.wait()
        s.close()
    return result


def main() -> list[float | None]:
    log: list[str] = []
    got = [run([1.0, 4.0, 9.0], log), run([-1.0, 4.0], log)]
    assert got == [6.0, None] and len(log) == 1, (got, log)
    return got


main()
