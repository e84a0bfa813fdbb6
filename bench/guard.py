"""Guard mode's cost per transfer, on this CPU with the lazy emulator.

For each size: the mprotect pair alone (protect + release of the array's pages), and a
whole upload + wait() and download + wait() on the emulator with guard mode off and on
(guard mode adds one protect + release per transfer, plus a lift + restore around the
emulator's own copy). Median of repeated runs, microseconds per transfer.

    NUMBAXFER_BACKEND=emulator python bench/guard.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

import numbaxfer as nx
from numbaxfer import _guard

SIZES = (4 << 10, 64 << 10, 1 << 20, 16 << 20)  # bytes


def _median_us(fn: Callable[[], object], repeat: int) -> float:
    for _ in range(3):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times) / 1e3


def _round_trips(nbytes: int, guard: bool, repeat: int) -> tuple[float, float]:
    previous = nx.set_guard(guard)
    try:
        n = nbytes // 4
        s = nx.stream()
        dev = nx.device_array(n, np.float32)
        box = [nx.pinned_copy(np.ones(n, np.float32)), nx.pinned_array(n, np.float32)]

        def upload() -> None:
            box[0] = s.upload(box[0], to=dev).wait()

        def download() -> None:
            box[1] = s.download(dev, into=box[1]).wait()

        result = _median_us(upload, repeat), _median_us(download, repeat)
        s.close()
        return result
    finally:
        nx.set_guard(previous)


def _pair(nbytes: int, repeat: int) -> float:
    previous = nx.set_guard(True)
    try:
        area = _guard.alloc_pages((nbytes,), np.dtype(np.uint8))
        area[::4096] = 1  # touch every page first: mprotect of untouched pages is cheaper

        def pair() -> None:
            token = _guard.protect(area, True, "bench")
            assert token is not None
            token.release()

        return _median_us(pair, repeat)
    finally:
        nx.set_guard(previous)


def main() -> None:
    with nx.use_backend("emulator"):
        print(f"guard mode cost on the emulator ({nx.current_backend().describe()})")
        print("median us per transfer (upload+wait / download+wait), page size", _guard.PAGE)
        head = ("size", "mprotect pair", "upload off", "upload on", "download off", "download on")
        print(" | ".join(f"{h:>13}" for h in head))
        for nbytes in SIZES:
            repeat = 200 if nbytes <= 1 << 20 else 30
            pair = _pair(nbytes, repeat)
            up_off, down_off = _round_trips(nbytes, False, repeat)
            up_on, down_on = _round_trips(nbytes, True, repeat)
            size = f"{nbytes >> 10} KiB" if nbytes < 1 << 20 else f"{nbytes >> 20} MiB"
            cells = (size, pair, up_off, up_on, down_off, down_on)
            print(" | ".join(f"{c:>13.1f}" if isinstance(c, float) else f"{c:>13}" for c in cells))


if __name__ == "__main__":
    main()
