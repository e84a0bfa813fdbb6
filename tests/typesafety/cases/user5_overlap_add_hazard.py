# An audio block processor by overlap-add (see user5_overlap_add_ok.py). The bug, kind
# "a method reading an attribute another method moved": the level meter is updated right
# after push(), whose download still owns self.h_out, before pull() has taken it back.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def ola_out(x: Any, taps: Any, carry: Any, y: Any) -> None:
    for n in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc = carry[n] if n < carry.size else 0.0
        for j in range(taps.size):
            if n - j >= 0:
                acc += taps[j] * x[n - j]
        y[n] = acc


@cuda.jit
def ola_tail(x: Any, taps: Any, carry: Any) -> None:
    hop = x.size
    for m in range(cuda.grid(1), carry.size, cuda.gridsize(1)):
        acc = 0.0
        for j in range(taps.size):
            if 0 <= hop + m - j < hop:
                acc += taps[j] * x[hop + m - j]
        carry[m] = acc


class OverlapAdd:
    def __init__(self, taps: NDArray[np.float32], hop: int) -> None:
        self.s = nx.stream()
        self.hop = hop
        self.d_taps = nx.device_array(taps.size, np.float32)
        self.s.upload_staged(taps, to=self.d_taps)
        self.carry = nx.device_array(taps.size - 1, np.float32)
        self.s.upload_staged(np.zeros(taps.size - 1, np.float32), to=self.carry)
        self.d_in = nx.device_array(hop, np.float32)
        self.d_out = nx.device_array(hop, np.float32)
        self.h_in: Host = nx.pinned_array(hop, np.float32)
        self.h_out: Host = nx.pinned_array(hop, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def push(self, block: NDArray[np.float32]) -> None:
        with self.h_in.write() as a:
            a[:] = block
        up = self.s.upload(self.h_in, to=self.d_in)
        self.s.launch(ola_out, 1, 32, self.d_in, self.d_taps, self.carry, self.d_out)
        self.s.launch(ola_tail, 1, 32, self.d_in, self.d_taps, self.carry)
        self.h_in = up.wait()
        self.pending = self.s.download(self.d_out, into=self.h_out)

    def pull(self) -> NDArray[np.float32]:
        assert self.pending is not None, "pull() without push()"
        self.h_out = self.pending.wait()
        self.pending = None
        return self.h_out.read().copy()

    def level(self) -> float:
        """Peak of the last pulled block, for the level meter."""
        return float(np.abs(self.h_out.read()).max())

    def close(self) -> None:
        if self.pending is not None:
            self.h_out = self.pending.wait()
            self.pending = None
        self.s.close()


def process(signal: NDArray[np.float32], taps: NDArray[np.float32], hop: int) -> NDArray[np.float32]:
    proc = OverlapAdd(taps, hop)
    blocks: list[NDArray[np.float32]] = []
    meter: list[float] = []
    for start in range(0, signal.size, hop):
        proc.push(signal[start : start + hop])
        meter.append(proc.level())  # E: use-after-transfer "h_out"
        blocks.append(proc.pull())
    proc.close()
    assert len(meter) == len(blocks)
    return np.concatenate(blocks)


if __name__ == "__main__":
    sig = np.sin(np.arange(256, dtype=np.float32) / 5.0).astype(np.float32)
    taps = np.array([0.5, 0.25, 0.125, 0.125], dtype=np.float32)
    out = process(sig, taps, 64)
    want = np.convolve(sig, taps)[: sig.size]
    assert np.allclose(out, want, atol=1e-5), float(np.abs(out - want).max())
    print("overlap-add ok")
