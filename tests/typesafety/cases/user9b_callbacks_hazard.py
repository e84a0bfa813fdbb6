# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 50): submit() stores host in self.buffers[name] and moves it into the download kept in a Pending of self.pending; poll() passes self.buffers[p.name] to the callback after the wait() gave the array back under another name; an alias kept in a dict attribute by another method is not followed
# Planted bug: poll() hands the callback the buffer registered at submit time (moved into the download) instead of the one wait() returned.
"""Completion callbacks for downloads: a small dispatcher polls its pending transfers
and calls each one's callback with the buffer the transfer hands back."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from numba import cuda

import numbaxfer as nx

F32 = np.float32
Host = nx.PinnedArray[nx.Owned, np.float32]
Callback = Callable[[Host], None]


@cuda.jit
def moments(x: Any, out: Any, power: int) -> None:
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] ** power


@dataclass
class Pending:
    name: str
    transfer: nx.Transfer[Host]
    callback: Callback


class Dispatcher:
    def __init__(self) -> None:
        self.pending: list[Pending] = []
        self.spare: list[Host] = []
        self.buffers: dict[str, Host] = {}

    def submit(self, name: str, s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32], cb: Callback) -> None:
        host = self.spare.pop() if self.spare else nx.pinned_array(dev.size, F32)
        self.buffers[name] = host
        self.pending.append(Pending(name, s.download(dev, into=host), cb))

    def poll(self) -> int:
        still: list[Pending] = []
        for p in self.pending:
            if p.transfer.done():
                buf = p.transfer.wait()
                p.callback(self.buffers[p.name])  # E: use-after-transfer
                self.buffers[p.name] = buf
                self.spare.append(buf)
            else:
                still.append(p)
        self.pending = still
        return len(still)


def main() -> None:
    rng = np.random.default_rng(4)
    s = nx.stream()
    x_d = nx.device_array(96, F32)
    x_h = s.upload(nx.pinned_copy(rng.standard_normal(96).astype(F32)), to=x_d).wait()
    outs = {p: nx.device_array(96, F32) for p in (1, 2, 3, 4)}
    stats: dict[str, float] = {}
    disp = Dispatcher()
    for p, dev in outs.items():
        s.launch(moments, 2, 64, x_d, dev, p)

        def record(buf: Host, key: str = f"m{p}") -> None:
            stats[key] = float(buf.read().mean())

        disp.submit(f"moment-{p}", s, dev, record)
    while disp.poll():
        pass
    print({k: round(v, 4) for k, v in sorted(stats.items())})
    assert abs(stats["m2"] - float(np.mean(x_h.read() ** 2))) < 1e-4
    s.close()


if __name__ == "__main__":
    main()
