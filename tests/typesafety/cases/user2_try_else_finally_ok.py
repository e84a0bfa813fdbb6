# try/except/else/finally around several transfers: two inputs go up, a kernel combines
# them, the result comes down; meanwhile the host validates the next request, which may
# raise. Correct: the handler only records the error, `else` and the code after the
# statement read the buffers, and `finally` takes all three back on every path.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def add(a: Any, b: Any, out: Any) -> None:
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


def validate(request: dict[str, float]) -> None:
    if request.get("scale", 1.0) <= 0.0:
        raise ValueError(f"bad scale in {request}")


def combine(s: nx.Stream[nx.Owned], request: dict[str, float]) -> tuple[float, str | None]:
    ha = nx.pinned_copy(np.ones(N, dtype=np.float32))
    hb = nx.pinned_copy(np.full(N, 2.0, dtype=np.float32))
    out = nx.pinned_array(N, np.float32)
    da, db, dout = (nx.device_array(N, np.float32) for _ in range(3))
    ua = s.upload(ha, to=da)
    ub = s.upload(hb, to=db)
    s.launch(add, 1, N, da, db, dout)
    down = s.download(dout, into=out)
    error: str | None = None
    try:
        validate(request)
    except ValueError as e:
        error = str(e)
    else:
        print("request ok:", request)
    finally:
        ha, hb, out = ua.wait(), ub.wait(), down.wait()
    total = float(out.read().sum())
    if error is not None:
        total = -total
    print(ha.read()[0], hb.read()[0])
    return total, error


def main() -> None:
    s = nx.stream()
    assert combine(s, {"scale": 2.0}) == (24.0, None)
    total, err = combine(s, {"scale": -1.0})
    assert total == -24.0 and err is not None
    s.close()


main()
