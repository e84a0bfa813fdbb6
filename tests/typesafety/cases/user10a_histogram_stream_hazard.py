# RUN: warns ResourceWarning anywhere
# Planted bug: the consumer stops early once a histogram is flat enough and drops the transfer the generator has just yielded without waiting it.
"""Particle-energy histograms over a sequence of Monte Carlo steps: a generator enqueues
each step's histogram download and yields the transfer; the consumer completes them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.int32]
BINS = 16


@cuda.jit
def histogram(energies: Any, hist: Any, step: int) -> None:
    for b in range(cuda.grid(1), hist.size, cuda.gridsize(1)):
        c = 0
        for i in range(energies.size):
            e = (energies[i] + 0.01 * step) % 1.0
            if int(e * hist.size) == b:
                c += 1
        hist[b] = c


def histogram_steps(s: nx.Stream[nx.Lent], steps: int, n: int) -> Iterator[tuple[int, nx.Transfer[Host]]]:
    d_e = nx.device_array(n, np.float32)
    d_h = nx.device_array(BINS, np.int32)
    energies = nx.pinned_copy(np.random.default_rng(5).random(n, dtype=np.float32))
    energies = s.upload(energies, to=d_e).wait()
    for step in range(steps):
        s.launch(histogram, 1, 16, d_e, d_h, step)
        yield step, s.download(d_h, into=nx.pinned_array(BINS, np.int32))
    energies.free()


def occupied(counts: dict[int, np.ndarray[Any, np.dtype[np.int32]]]) -> list[int]:
    """How many bins each step's histogram fills."""
    return [int((c > 0).sum()) for c in counts.values()]


def main() -> None:
    s = nx.stream()
    n, steps = 512, 6
    counts: dict[int, np.ndarray[Any, np.dtype[np.int32]]] = {}
    for step, down in histogram_steps(s, steps, n):  # E: unfinished-transfer
        if step == steps - 1 and len(counts) >= 3:
            break
        hist = down.wait()
        counts[step] = hist.read().copy()
        hist.free()
        if counts[step].sum() != n:
            raise RuntimeError(f"step {step} lost particles")
    assert sorted(counts) == list(range(steps - 1))
    print("occupied bins per step:", occupied(counts))


if __name__ == "__main__":
    main()
