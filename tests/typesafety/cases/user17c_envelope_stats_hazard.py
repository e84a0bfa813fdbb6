# RUN: raises BorrowError via-call
# Planted bug: crest/peak are computed lazily from the lent view after its lend block ended
"""Envelope detection of several recordings, with quality statistics computed from a
lent view of the downloaded envelope.

``SignalStats`` wraps a lent handle and computes each statistic lazily (cached on first
access). ``measure`` lends the output buffer, gates on the RMS and collects the
statistics the caller wants, all inside the lend block.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def envelope(x: Any, y: Any, half: int) -> None:
    """Moving average of |x| over 2*half+1 samples (clamped at the ends)."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc = 0.0
        cnt = 0
        for k in range(i - half, i + half + 1):
            if 0 <= k < x.size:
                acc += abs(x[k])
                cnt += 1
        y[i] = acc / cnt


class SignalStats:
    """Statistics of a lent host buffer, each computed on first use."""

    def __init__(self, view: nx.PinnedArray[nx.Lent, np.float32]) -> None:
        self._view = view

    @functools.cached_property
    def rms(self) -> float:
        return float(np.sqrt(np.mean(self._view.read().astype(np.float64) ** 2)))

    @functools.cached_property
    def peak(self) -> float:
        return float(np.max(self._view.read()))

    @functools.cached_property
    def crest(self) -> float:
        return self.peak / self.rms

    def metric(self, name: str) -> float:
        if name == "rms":
            return self.rms
        if name == "peak":
            return self.peak
        if name == "crest":
            return self.crest
        raise KeyError(name)


def measure(out: Host, wanted: tuple[str, ...], floor: float) -> dict[str, float]:
    with out.lend() as view:
        stats = SignalStats(view)
        if stats.rms < floor:
            return {}  # silent recording: nothing worth reporting
    return {name: stats.metric(name) for name in wanted}  # E: lend-escape


def envelopes(recordings: list[NDArray[np.float32]], half: int, floor: float) -> list[dict[str, float]]:
    n = recordings[0].size
    s = nx.stream()
    d_x = nx.device_array(n, np.float32)
    d_env = nx.device_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    report: list[dict[str, float]] = []
    for rec in recordings:
        with out.write() as a:
            a[:] = rec
        out = s.upload(out, to=d_x).wait()
        s.launch(envelope, max(1, n // 256), 64, d_x, d_env, half)
        out = s.download(d_env, into=out).wait()
        report.append(measure(out, ("rms", "crest"), floor))
    out.free()
    s.close()
    return report


def ref_envelope(x: NDArray[np.float32], half: int) -> NDArray[np.float64]:
    ax = np.abs(x.astype(np.float64))
    return np.array([ax[max(0, i - half) : i + half + 1].mean() for i in range(x.size)])


def main() -> None:
    rng = np.random.default_rng(8)
    n, half = 256, 4
    t = np.arange(n)
    recordings = [
        (np.sin(2 * np.pi * t / 32) * (1 + 0.5 * np.sin(2 * np.pi * t / n))).astype(np.float32),
        (1e-4 * rng.standard_normal(n)).astype(np.float32),
        rng.standard_normal(n).astype(np.float32),
    ]
    report = envelopes(recordings, half, floor=1e-2)
    assert report[1] == {}, report[1]
    for i in (0, 2):
        env = ref_envelope(recordings[i], half)
        rms = float(np.sqrt(np.mean(env**2)))
        assert abs(report[i]["rms"] - rms) < 1e-4
        assert abs(report[i]["crest"] - float(env.max()) / rms) < 1e-3
    print("envelope_stats: right,", [sorted(r) for r in report])


if __name__ == "__main__":
    main()
