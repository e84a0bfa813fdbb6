# XFAIL: miss: the nested callback binds the download destination as a default argument ("out: Host = out", the loop-variable idiom, line 56) and reads it (line 57) when poll() runs it after the download took "out"; a handle aliased through a default parameter of a nested function is not followed
# Completion callbacks: each download is registered with a callback that receives the
# buffer the transfer gives back; poll() runs the callbacks of finished transfers and
# keeps the rest for later, and finish() completes whatever is left. The bug: the
# callback reads the destination it closed over ("out", the handle the download
# took) instead of the buffer it is given.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from collections.abc import Callable

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Callback = Callable[[Host], None]
N = 8


class Completions:
    def __init__(self) -> None:
        self.waiting: list[tuple[nx.Transfer[Host], Callback]] = []

    def register(self, t: nx.Transfer[Host], cb: Callback) -> None:
        self.waiting.append((t, cb))

    def poll(self) -> int:
        still: list[tuple[nx.Transfer[Host], Callback]] = []
        ran = 0
        for t, cb in self.waiting:
            if t.done():
                cb(t.wait())
                ran += 1
            else:
                still.append((t, cb))
        self.waiting = still
        return ran

    def finish(self) -> None:
        for t, cb in self.waiting:
            cb(t.wait())
        self.waiting = []


def main() -> None:
    s = nx.stream()
    results: dict[str, float] = {}
    done = Completions()
    for i, name in enumerate(("mean", "max", "min")):
        dev = nx.device_array(N, np.float32)
        src = nx.pinned_copy(np.full(N, float(i), np.float32))
        src = s.upload(src, to=dev).wait()
        out = nx.pinned_array(N, np.float32)

        def store(buf: Host, name: str = name, out: Host = out) -> None:
            results[name] = float(out.read()[0])  # E: use-after-transfer "out"

        done.register(s.download(dev, into=out), store)
    done.poll()
    done.finish()
    assert results == {"mean": 0.0, "max": 1.0, "min": 2.0}, results
    s.close()


main()
