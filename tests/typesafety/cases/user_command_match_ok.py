# A command interpreter for a device-side buffer, driven by a list of messages and a
# `match` statement: "load" uploads values, "scale" launches a kernel, "fetch"
# downloads into the host buffer, "flush" waits. Each command first takes back the
# buffer from the previous command's transfer, if there is one.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, f: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= f


def interpret(commands: list[tuple[str, float]], n: int = 8) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_array(n, np.float32)
    pending: nx.Transfer[Host] | None = None
    fetched: list[float] = []
    for op, arg in commands:
        if pending is not None:
            host = pending.wait()
            pending = None
        match op:
            case "load":
                with host.write() as a:
                    a[:] = arg
                pending = s.upload(host, to=dev)
            case "scale":
                s.launch(scale, 1, n, dev, arg)
            case "fetch":
                pending = s.download(dev, into=host)
            case "flush":
                fetched.append(float(host.read().sum()))
            case _:
                raise ValueError(f"unknown command {op!r}")
    if pending is not None:
        host = pending.wait()
    s.close()
    return fetched


def main() -> list[float]:
    got = interpret([("load", 1.0), ("scale", 3.0), ("fetch", 0), ("flush", 0), ("scale", 2.0), ("fetch", 0), ("flush", 0)])
    assert got == [24.0, 48.0], got
    return got


main()
