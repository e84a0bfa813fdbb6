# A long download polled with done() so the host can do other work meanwhile (update a
# progress line, prepare the next input); the output is read after wait(), which
# returns at once once done() has said True.
# The bug: the progress line shows the first output value while polling, a read of the
# download's destination before wait().
# RUN: raises UseAfterTransferError
from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def simulate(a: Any, steps: int) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        x = 0.0
        for _ in range(steps):
            x = 0.5 * x + 1.0
        a[i] = x


def prepare_next(k: int, n: int) -> NDArray[np.float32]:
    return np.full(n, float(k), np.float32)


def main(n: int = 32) -> None:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    s.launch(simulate, 1, 32, dev, 20)
    down = s.download(dev, into=out)
    polls = 0
    started = time.perf_counter()
    staged = []
    while True:
        first = float(out.read()[0])  # E: use-after-transfer "\"out\""
        print(f"\rwaiting {time.perf_counter() - started:.3f}s, x[0]={first:.2f}", end="")
        if down.done():
            break
        polls += 1
        staged.append(prepare_next(polls, n))  # host work that needs no result
    out = down.wait()  # done: returns at once
    print(f"\rresult ready after {polls} polls")
    result = out.read()
    s.close()
    assert np.allclose(result, 2.0, atol=1e-4)


if __name__ == "__main__":
    main()
