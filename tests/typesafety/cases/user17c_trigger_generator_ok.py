# RUN: ok
"""Event trigger on a long seismic-like trace: a generator streams short-term energy
chunk by chunk, double-buffered, and the consumer stops at the first trigger.

The generator keeps one download in flight while it hands out the previous chunk, so
when the consumer breaks out early the newest download is still pending: the
generator's ``finally`` completes it before freeing the buffers and closing its
stream. The consumer closes the generator explicitly with ``contextlib.closing``.
"""

from __future__ import annotations

import contextlib
from typing import Any, Generator

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def short_term_energy(x: Any, e: Any, window: int) -> None:
    """Causal mean of x^2 over ``window`` samples, within the chunk."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc = 0.0
        lo = i - window + 1
        if lo < 0:
            lo = 0
        for k in range(lo, i + 1):
            acc += x[k] * x[k]
        e[i] = acc / (i + 1 - lo)


def energy_chunks(trace: NDArray[np.float32], chunk: int, window: int) -> Generator[tuple[int, NDArray[np.float32]], None, None]:
    s = nx.stream()
    d_x = nx.device_array(chunk, np.float32)
    d_e = nx.device_array(chunk, np.float32)
    free: list[Host] = [nx.pinned_array(chunk, np.float32) for _ in range(2)]
    pending: tuple[int, nx.Transfer[Host]] | None = None
    try:
        for start in range(0, trace.size, chunk):
            buf = free.pop()
            with buf.write() as a:
                a[:] = trace[start : start + chunk]
            up = s.upload(buf, to=d_x)
            s.launch(short_term_energy, max(1, chunk // 256), 64, d_x, d_e, window)
            ready, pending = pending, (start, s.download(d_e, into=up))
            if ready is not None:
                ready_start, ready_down = ready
                done = ready_down.wait()
                energy: NDArray[np.float32] = done.read().copy()
                free.append(done)
                yield ready_start, energy
        if pending is not None:
            last_start, last_down = pending
            pending = None
            done = last_down.wait()
            energy = done.read().copy()
            free.append(done)
            yield last_start, energy
    finally:
        if pending is not None:  # closed early: the newest download is still in flight
            free.append(pending[1].wait())
        for b in free:
            b.free()
        d_x.free()
        d_e.free()
        s.close()


def first_trigger(trace: NDArray[np.float32], chunk: int, window: int, threshold: float) -> int | None:
    with contextlib.closing(energy_chunks(trace, chunk, window)) as chunks:
        for start, energy in chunks:
            hits = np.flatnonzero(energy > threshold)
            if hits.size:
                return start + int(hits[0])
    return None


def reference(trace: NDArray[np.float32], chunk: int, window: int, threshold: float) -> int | None:
    for start in range(0, trace.size, chunk):
        x = trace[start : start + chunk].astype(np.float64)
        for i in range(x.size):
            lo = max(0, i - window + 1)
            if float(np.mean(x[lo : i + 1] ** 2)) > threshold:
                return start + i
    return None


def main() -> None:
    rng = np.random.default_rng(2)
    chunk, window = 128, 8
    trace = (0.1 * rng.standard_normal(8 * chunk)).astype(np.float32)
    trace[3 * chunk + 40 : 3 * chunk + 60] += 2.0 * np.sin(np.arange(20, dtype=np.float32))
    at = first_trigger(trace, chunk, window, threshold=0.5)
    assert at is not None and at == reference(trace, chunk, window, 0.5), at
    assert 3 * chunk + 40 <= at < 3 * chunk + 60
    quiet = first_trigger(trace[: 2 * chunk].copy(), chunk, window, threshold=0.5)
    assert quiet is None
    print(f"trigger_generator: right, first trigger at sample {at}")


if __name__ == "__main__":
    main()
