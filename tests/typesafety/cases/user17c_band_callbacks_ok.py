# RUN: ok
"""A bank of one-pole smoothers over one signal, one band per stream, with a user
callback that inspects selected bands.

The bands live in one pinned allocation split into owned parts (and a device
allocation split alike). Each part goes up, is smoothed and comes back through a
chained download on its own stream. Every download is completed in band order; the
bands the ``wants`` predicate selects are lent to ``on_band``; then the parts are
joined back into the whole array.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
LentHost = nx.PinnedArray[nx.Lent, np.float32]
OnBand = Callable[[int, LentHost], None]


@cuda.jit
def one_pole(x: Any, alpha: float) -> None:
    """In place: y[i] = alpha x[i] + (1 - alpha) y[i-1], one thread per band."""
    if cuda.grid(1) == 0:
        prev = x[0]
        for i in range(1, x.size):
            prev = alpha * x[i] + (1.0 - alpha) * prev
            x[i] = prev


def smoother_bank(
    x: NDArray[np.float32], alphas: list[float], on_band: OnBand, wants: Callable[[int], bool]
) -> NDArray[np.float32]:
    bands, n = len(alphas), x.size
    host = nx.pinned_array(bands * n, np.float32)
    with host.write() as a:
        a[:] = np.tile(x, bands)
    dev = nx.device_array(bands * n, np.float32)
    streams = [nx.stream() for _ in range(bands)]

    parts = nx.split(host, bands)
    d_parts = nx.split(dev, bands)
    downs: list[nx.Transfer[Host]] = []
    for s, h, d, alpha in zip(streams, parts, d_parts, alphas):
        up = s.upload(h, to=d)
        s.launch(one_pole, 1, 1, d, alpha)
        downs.append(s.download(d, into=up))

    for b, down in enumerate(downs):
        parts[b] = down.wait()
        if wants(b):
            with parts[b].lend() as view:
                on_band(b, view)

    host = nx.join(parts)
    dev = nx.join(d_parts)
    result = host.read().reshape(bands, n).copy()
    host.free()
    dev.free()
    for s in streams:
        s.close()
    return result


def make_energy_probe(log: dict[int, float]) -> OnBand:
    def probe(band: int, view: LentHost) -> None:
        log[band] = float(np.mean(view.read().astype(np.float64) ** 2))

    return probe


def reference(x: NDArray[np.float32], alpha: float) -> NDArray[np.float64]:
    y = x.astype(np.float64).copy()
    for i in range(1, y.size):
        y[i] = alpha * y[i] + (1.0 - alpha) * y[i - 1]
    return y


def main() -> None:
    rng = np.random.default_rng(17)
    n = 256
    x = (np.sin(np.arange(n) * 0.05) + 0.5 * rng.standard_normal(n)).astype(np.float32)
    alphas = [0.9, 0.5, 0.2, 0.05]
    energies: dict[int, float] = {}
    out = smoother_bank(x, alphas, make_energy_probe(energies), wants=lambda b: b % 2 == 1)
    for b, alpha in enumerate(alphas):
        assert np.allclose(out[b], reference(x, alpha), atol=1e-4), b
    assert sorted(energies) == [1, 3]
    assert energies[3] < energies[1], energies
    print(f"band_callbacks: right, {len(alphas)} bands, probed {sorted(energies)}")


if __name__ == "__main__":
    main()
