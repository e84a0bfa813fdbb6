# nx.Pipeline over a large array in chunks: src and dst move into the run and come back
# from run.wait(); the step enqueues device work only. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def step(
    s: nx.Stream[nx.Lent],
    chunk_in: nx.DeviceArray[nx.Owned, np.float32],
    chunk_out: nx.DeviceArray[nx.Owned, np.float32],
) -> None:
    s.copy(chunk_in, to=chunk_out)


def main(total: int = 1000, chunk: int = 256) -> float:
    src = nx.pinned_array(total, np.float32)
    with src.write() as a:
        a[:] = np.arange(total, dtype=np.float32)
    dst = nx.pinned_array(total, np.float32)
    pipe = nx.Pipeline(chunk, np.float32, slots=3)
    for _ in range(2):
        run = pipe.map(src, into=dst, step=step)
        src, dst = run.wait()
        with src.write() as a:
            a += 1.0
    ok = bool(np.array_equal(dst.read(), src.read() - 1.0))
    pipe.close()
    return float(ok)


main()
