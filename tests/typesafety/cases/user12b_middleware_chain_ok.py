# RUN: ok
"""A middleware chain around a GPU handler: each middleware takes the request context and
the next callable (bound with functools.partial); the staging middleware moves the
request body to the device, an audit middleware fingerprints the body, and the handler
runs the kernel and answers."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Next = Callable[["Context"], float]
Middleware = Callable[["Context", Next], float]


@cuda.jit
def halve(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= 0.5


@dataclass
class Context:
    stream: nx.Stream[nx.Owned]
    body: Host
    dev: nx.DeviceArray[nx.Owned, np.float32]
    log: list[str] = field(default_factory=list)


def timing(ctx: Context, nxt: Next) -> float:
    start = time.perf_counter()
    try:
        return nxt(ctx)
    finally:
        ctx.log.append(f"took {time.perf_counter() - start:.4f}s")


def staging(ctx: Context, nxt: Next) -> float:
    up = ctx.stream.upload(ctx.body, to=ctx.dev)
    ctx.body = up.wait()
    ctx.log.append("staged")
    return nxt(ctx)


def audit(ctx: Context, nxt: Next) -> float:
    digest = int(ctx.body.read().view(np.uint32).sum(dtype=np.uint64)) & 0xFFFF
    ctx.log.append(f"digest {digest:04x}")
    return nxt(ctx)


def handler(ctx: Context) -> float:
    ctx.stream.launch(halve, 2, 64, ctx.dev)
    ctx.body = ctx.stream.download(ctx.dev, into=ctx.body).wait()
    return float(ctx.body.read().sum(dtype=np.float64))


def build_chain(middlewares: list[Middleware], final: Next) -> Next:
    chain = final
    for mw in reversed(middlewares):
        chain = functools.partial(mw, nxt=chain)  # type: ignore[call-arg]
    return chain


def main() -> None:
    n = 256
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    app = build_chain([timing, staging, audit], handler)
    totals: list[float] = []
    for value in (2.0, 8.0):
        ctx = Context(s, nx.pinned_copy(np.full(n, value, dtype=np.float32)), dev)
        totals.append(app(ctx))
        ctx.body.free()
        assert ctx.log[0] == "staged" and ctx.log[1].startswith("digest")
    s.close()
    assert totals == [1.0 * n, 4.0 * n]
    print("totals", totals)


if __name__ == "__main__":
    main()
