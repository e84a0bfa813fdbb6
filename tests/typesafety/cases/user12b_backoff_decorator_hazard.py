# RUN: raises UseAfterTransferError
# XFAIL: miss (line 45): fetch() waits its download but leaves it in ctx.pending, and the retry decorator's recover() hook waits the same transfer again; a transfer left in a context object's list by a decorated function is not followed
# Planted bug: fetch() waits its download but leaves it in ctx.pending, so the retry decorator's recover() hook waits the same transfer again after the validation failure.
"""A retry-with-backoff decorator around a flaky fetch: the device result is downloaded,
validated, and the fetch retried on a transient validation failure; a recovery hook
completes any download a failed attempt left pending."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
R = TypeVar("R")


class TransientError(RuntimeError):
    pass


@cuda.jit
def fill(a: Any, value: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = value


@dataclass
class FetchContext:
    stream: nx.Stream[nx.Owned]
    dev: nx.DeviceArray[nx.Owned, np.float32]
    out: Host
    pending: nx.Transfer[Host] | None = None
    attempt: int = 0
    delays: tuple[float, ...] = ()


def recover(ctx: FetchContext) -> None:
    if ctx.pending is not None:
        ctx.out = ctx.pending.wait()  # E: transfer-completed-twice
        ctx.pending = None


def retry(attempts: int, base_delay: float) -> Callable[[Callable[[FetchContext], R]], Callable[[FetchContext], R]]:
    def deco(fn: Callable[[FetchContext], R]) -> Callable[[FetchContext], R]:
        @functools.wraps(fn)
        def wrapper(ctx: FetchContext) -> R:
            for attempt in range(attempts):
                ctx.attempt = attempt
                try:
                    return fn(ctx)
                except TransientError:
                    recover(ctx)
                    ctx.delays += (base_delay * 2**attempt,)
            raise TransientError(f"gave up after {attempts} attempts")

        return wrapper

    return deco


@retry(attempts=4, base_delay=0.01)
def fetch(ctx: FetchContext) -> float:
    ctx.stream.launch(fill, 2, 64, ctx.dev, float(ctx.attempt + 1))
    ctx.pending = ctx.stream.download(ctx.dev, into=ctx.out)
    ctx.out = ctx.pending.wait()
    values = ctx.out.read()
    if values[0] < 3.0:
        raise TransientError(f"stale value {values[0]}")
    return float(values.sum(dtype=np.float64))


def main() -> None:
    n = 256
    s = nx.stream()
    ctx = FetchContext(s, nx.device_array(n, np.float32), nx.pinned_array(n, np.float32))
    total = fetch(ctx)
    ctx.out.free()
    ctx.dev.free()
    s.close()
    assert total == 3.0 * n and ctx.attempt == 2
    assert ctx.delays == (0.01, 0.02)
    print("fetched", total, "after", ctx.attempt + 1, "attempts", ctx.delays)


if __name__ == "__main__":
    main()
