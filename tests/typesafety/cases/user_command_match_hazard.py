# A command interpreter for a device-side buffer, driven by a list of messages and a
# `match` statement: "load" uploads values, "scale" launches a kernel, "fetch"
# downloads into the host buffer, "flush" waits. Each command first takes back the
# buffer from the previous command's transfer, if there is one.
# Bug: the take-back was moved into the "flush" case only ("that is where we read"):
# a "fetch" right after a "load" downloads into the buffer the upload still owns, and
# the upload's transfer is dropped (so the read in "flush" may still see the buffer
# that dropped upload owns).
# RUN: raises UseAfterTransferError
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
        match op:
            case "load":
                with host.write() as a:  # E: use-after-transfer "host"
                    a[:] = arg
                pending = s.upload(host, to=dev)  # E: use-after-transfer "host"  # E: unfinished-transfer "pending"
            case "scale":
                s.launch(scale, 1, n, dev, arg)
            case "fetch":
                pending = s.download(dev, into=host)  # E: use-after-transfer "host"  # E: unfinished-transfer "pending"
            case "flush":
                if pending is not None:
                    host = pending.wait()
                    pending = None
                fetched.append(float(host.read().sum()))  # E: use-after-transfer "host"
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
