# A "with Timer():" profiling helper around copies (see user5_timer_copies_ok.py). The
# bug, kind "reading the download destination before wait": to time the enqueue alone,
# the download's wait() is moved out of its Timer block, and the check now runs before it.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import time
from types import TracebackType
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def twice(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 2.0 * a[i]


class Timer:
    def __init__(self, name: str, log: dict[str, list[float]]) -> None:
        self.name = name
        self.log = log
        self.t0 = 0.0

    def __enter__(self) -> Timer:
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.log.setdefault(self.name, []).append(time.perf_counter() - self.t0)


def profile(sizes: list[int], repeats: int = 2) -> dict[str, list[float]]:
    log: dict[str, list[float]] = {}
    s = nx.stream()
    for n in sizes:
        host = nx.pinned_array(n, np.float32)
        out = nx.pinned_array(n, np.float32)
        dev = nx.device_array(n, np.float32)
        for r in range(repeats):
            with host.write() as a:
                a[:] = np.arange(n, dtype=np.float32) + r
            with Timer(f"h2d/{n}", log):
                up = s.upload(host, to=dev)
                host = up.wait()
            with Timer(f"kernel/{n}", log):
                s.launch(twice, 1, 32, dev)
                s.synchronize()
            with Timer(f"d2h-enqueue/{n}", log):
                down = s.download(dev, into=out)
            assert np.array_equal(out.read(), 2.0 * host.read()), (n, r)  # E: use-after-transfer "out"
            out = down.wait()
        host.free()
        out.free()
        dev.free()
    s.close()
    return log


if __name__ == "__main__":
    log = profile([32, 128])
    assert len(log) == 6 and all(len(v) == 2 for v in log.values()), log
    for name, ts in sorted(log.items()):
        print(f"{name:12s} {min(ts) * 1e6:9.1f} us")
