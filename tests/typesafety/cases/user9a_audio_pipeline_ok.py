# RUN: ok
"""Apply a gain curve to a long audio buffer with nx.Pipeline, then report levels."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def gain(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = 0.25 * src[i]


def gain_step(
    s: nx.Stream[nx.Lent],
    chunk_in: nx.DeviceArray[nx.Owned, np.float32],
    chunk_out: nx.DeviceArray[nx.Owned, np.float32],
) -> None:
    s.launch(gain, 1, 64, chunk_in, chunk_out)


def peak_db(buf: Host) -> float:
    peak = float(np.abs(buf.read()).max())
    return 20.0 * float(np.log10(max(peak, 1e-12)))


def render(samples: int, chunk: int) -> tuple[float, float]:
    src: Host = nx.pinned_array(samples, np.float32)
    with src.write() as a:
        t = np.arange(samples, dtype=np.float32)
        a[:] = np.sin(t * 0.05).astype(np.float32)
    dst: Host = nx.pinned_array(samples, np.float32)
    pipe = nx.Pipeline(chunk, np.float32, slots=2)
    run = pipe.map(src, into=dst, step=gain_step)
    src, dst = run.wait()
    level_in = peak_db(src)
    level_out = peak_db(dst)
    pipe.close()
    return level_in, level_out


def main() -> None:
    level_in, level_out = render(600, 128)
    assert abs((level_in - level_out) - 12.04) < 0.05, (level_in, level_out)
    print(f"in {level_in:.2f} dB, out {level_out:.2f} dB")


if __name__ == "__main__":
    main()
