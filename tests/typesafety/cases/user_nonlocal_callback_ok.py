# A progress-reporting upload loop written with nested functions: finish() is a closure
# that takes the buffer back through `nonlocal`, report() reads it, and both are called
# only after the move they depend on has been completed.
# RUN: ok
from __future__ import annotations

from collections.abc import Callable

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def upload_all(chunks: list[list[float]], log: Callable[[str], None]) -> float:
    s = nx.stream()
    n = max(len(c) for c in chunks)
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_array(n, np.float32)
    pending: nx.Transfer[Host] | None = None
    grand = 0.0

    def finish() -> None:
        nonlocal host, pending
        if pending is not None:
            host = pending.wait()
            pending = None

    def report(i: int) -> float:
        total = float(host.read().sum())
        log(f"chunk {i}: {total}")
        return total

    for i, chunk in enumerate(chunks):
        finish()
        with host.write() as a:
            a[:] = 0.0
            a[: len(chunk)] = chunk
        grand += report(i)
        pending = s.upload(host, to=dev)
    finish()
    s.close()
    return grand


def main() -> float:
    lines: list[str] = []
    got = upload_all([[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]], lines.append)
    assert got == 21.0 and len(lines) == 3, (got, lines)
    return got


main()
