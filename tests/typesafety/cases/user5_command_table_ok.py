# A small command interpreter for a GPU scratchpad (a REPL or a script of commands): a
# dispatch table maps command names to functions that enqueue work on the session's
# stream; "load" uploads the pinned buffer, "scale" launches a kernel, "fetch" downloads
# into the pinned buffer. The interpreter keeps the transfer a command started and takes
# the buffer back before the next command that needs it.
# RUN: ok
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, k: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= k


def interpret(script: list[tuple[str, float]], n: int = 32) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    buf: Host = nx.pinned_array(n, np.float32)
    movers: dict[str, Callable[[nx.Consumed[Host]], nx.Transfer[Host]]] = {
        "load": lambda b: s.upload(b, to=dev),
        "fetch": lambda b: s.download(dev, into=b),
    }
    printed: list[float] = []
    for cmd, arg in script:
        if cmd == "fill":
            with buf.write() as a:
                a[:] = arg
        elif cmd in movers:
            t = movers[cmd](buf)
            buf = t.wait()
        elif cmd == "scale":
            s.launch(scale, 1, 32, dev, arg)
        elif cmd == "print":
            printed.append(float(buf.read().sum()))
        else:
            raise ValueError(f"unknown command {cmd!r}")
    s.close()
    return printed


if __name__ == "__main__":
    script = [("fill", 1.0), ("load", 0), ("scale", 3.0), ("fetch", 0), ("print", 0), ("fill", 2.0), ("print", 0)]
    assert interpret(script) == [96.0, 64.0], interpret(script)
    print("commands ok")
