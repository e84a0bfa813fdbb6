# (no RUN line: on the simulator done() is always True, so the second wait() path is not taken)
# Planted bug: the final download is waited once to check that it is finished and then waited again in the return statement.
"""Fast Walsh-Hadamard transform in log2(n) butterfly stages, ping-ponging between two
device buffers; every other stage is downloaded so the host can check Parseval's identity."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 64
F64 = np.float64
Host = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def butterfly(src: Any, dst: Any, h: int) -> None:
    i = cuda.grid(1)
    if i < src.size:
        j = i ^ h
        if i & h == 0:
            dst[i] = src[i] + src[j]
        else:
            dst[i] = src[j] - src[i]


def energy(buf: Host) -> float:
    v = buf.read()
    return float(np.dot(v, v))


def transform(s: nx.Stream[nx.Owned], signal: nx.Consumed[Host]) -> tuple[Host, list[Host]]:
    a, b = nx.device_array(N, F64), nx.device_array(N, F64)
    signal = s.upload(signal, to=a).wait()
    snapshots: list[nx.Transfer[Host]] = []
    h, stage = 1, 0
    while h < N:
        s.launch(butterfly, 1, N, a, b, h)
        a, b = b, a
        if stage % 2 == 1:
            snapshots.append(s.download(a, into=nx.pinned_array(N, F64)))
        h *= 2
        stage += 1
    result = s.download(a, into=signal)
    diag = [t.wait() for t in snapshots]
    if not result.done():
        result.wait()
    return result.wait(), diag  # E: transfer-completed-twice


def main() -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal(N)
    s = nx.stream()
    signal = nx.pinned_copy(x)
    e0 = float(np.dot(x, x))
    out, diag = transform(s, signal)
    for k, snap in enumerate(diag):
        scale = 2 ** (2 * k + 2)
        print(f"stage {2 * k + 1}: energy ratio {energy(snap) / (scale * e0):.6f}")
        snap.free()
    ratio = energy(out) / (N * e0)
    print(f"final Parseval ratio {ratio:.6f}")
    assert abs(ratio - 1.0) < 1e-9
    s.close()


if __name__ == "__main__":
    main()
