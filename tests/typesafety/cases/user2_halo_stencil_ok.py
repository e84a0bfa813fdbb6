# 1-D heat diffusion decomposed over streams: the field is split into owned parts, each
# part goes up, is smoothed and comes back on its own stream, then the halo cells are
# exchanged on the host before the next step. Correct: halos are read from parts that
# are home (the list the waits returned).
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]

N_PARTS = 4
CELLS = 8  # per part, one halo cell at each end
ALPHA = 0.25


@cuda.jit
def diffuse(src: Any, dst: Any, alpha: float) -> None:
    i = cuda.grid(1)
    if 0 < i < src.size - 1:
        dst[i] = src[i] + alpha * (src[i - 1] - 2.0 * src[i] + src[i + 1])
    elif i < src.size:
        dst[i] = src[i]


def reference(field: NDArray[np.float32], steps: int) -> NDArray[np.float32]:
    f = field.reshape(N_PARTS, CELLS).astype(np.float64)
    for _ in range(steps):
        for i in range(N_PARTS):
            f[i, 0] = f[i - 1, -2]
            f[i, -1] = f[(i + 1) % N_PARTS, 1]
        g = f.copy()
        g[:, 1:-1] = f[:, 1:-1] + ALPHA * (f[:, :-2] - 2.0 * f[:, 1:-1] + f[:, 2:])
        f = g
    return f.reshape(-1).astype(np.float32)


def exchange_halos(parts: list[Host]) -> None:
    """Periodic halo exchange between neighbouring parts (all of them home)."""
    edges = [(float(p.read()[1]), float(p.read()[-2])) for p in parts]
    for i, p in enumerate(parts):
        with p.write() as a:
            a[0] = edges[i - 1][1]
            a[-1] = edges[(i + 1) % len(parts)][0]


def step(parts: list[Host], d_in: list[Dev], d_out: list[Dev], streams: list[nx.Stream[nx.Owned]]) -> list[Host]:
    downs: list[nx.Transfer[Host]] = []
    for p, di, do, s in zip(parts, d_in, d_out, streams):
        up = s.upload(p, to=di)
        s.launch(diffuse, 1, CELLS, di, do, ALPHA)
        downs.append(s.download(do, into=up))  # chained: the part stays with the copies
    return [t.wait() for t in downs]


def main(steps: int = 3) -> None:
    streams = [nx.stream() for _ in range(N_PARTS)]
    initial = np.zeros(N_PARTS * CELLS, dtype=np.float32)
    initial[CELLS + CELLS // 2] = 100.0
    field = nx.pinned_copy(initial)
    parts = nx.split(field, N_PARTS)
    d_in = nx.split(nx.device_array(N_PARTS * CELLS, np.float32), N_PARTS)
    d_out = nx.split(nx.device_array(N_PARTS * CELLS, np.float32), N_PARTS)
    for _ in range(steps):
        exchange_halos(parts)
        parts = step(parts, d_in, d_out, streams)
    field = nx.join(parts)
    result = field.read().copy()
    for s in streams:
        s.close()
    # the reference exchanges halos before each step, as above
    assert np.allclose(result, reference(initial, steps)), result


main()
