# A command interpreter with a dispatch table of transfer commands (see
# XFAIL: miss: buf moved by a call through a dispatch table of lambdas typed Callable[[nx.Consumed[Host]], Transfer[Host]] ("pending = movers[cmd](buf)", line 44) and read by the "print" command at line 48 in a later iteration is not reported
# user5_command_table_ok.py). The bug, kind "use after a consuming call (through a
# dispatch table of lambdas typed Consumed)": the take-back is deferred to the next
# command that needs the buffer, but "print" was left out of that list.
# RUN: raises UseAfterTransferError
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
    pending: nx.Transfer[Host] | None = None
    for cmd, arg in script:
        if cmd in ("fill", "load", "fetch") and pending is not None:
            buf = pending.wait()
            pending = None
        if cmd == "fill":
            with buf.write() as a:
                a[:] = arg
        elif cmd in movers:
            pending = movers[cmd](buf)
        elif cmd == "scale":
            s.launch(scale, 1, 32, dev, arg)
        elif cmd == "print":
            printed.append(float(buf.read().sum()))  # E: use-after-transfer "buf"
        else:
            raise ValueError(f"unknown command {cmd!r}")
    if pending is not None:
        buf = pending.wait()
    s.close()
    return printed


if __name__ == "__main__":
    script = [("fill", 1.0), ("load", 0), ("scale", 3.0), ("fetch", 0), ("print", 0), ("fill", 2.0), ("print", 0)]
    assert interpret(script) == [96.0, 64.0], interpret(script)
    print("commands ok")
