# RUN: raises UseAfterTransferError
# Planted bug: the refactored finish() waits the download once more after the match statement, although the EAGER case already completed it.
"""A/B experiment scorer: per-variant click-through scores, finished by policy.

For each variant the impression and click counts are uploaded and a kernel computes a
smoothed click-through rate per bucket; the rates are downloaded. How a variant's
download is finished depends on an Enum policy, dispatched with ``match``: EAGER audits
the rates as soon as they arrive, LAZY just collects them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def smoothed_ctr(clicks: Any, shows: Any, out: Any, alpha: float, beta: float) -> None:
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = (clicks[i] + alpha) / (shows[i] + alpha + beta)


class Policy(enum.Enum):
    EAGER = "eager"
    LAZY = "lazy"


@dataclass
class Scorer:
    buckets: int
    alpha: float = 1.0
    beta: float = 20.0
    stream: nx.Stream[nx.Owned] = field(default_factory=nx.stream)
    audit: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.d_clicks = nx.device_array(self.buckets, np.float32)
        self.d_shows = nx.device_array(self.buckets, np.float32)
        self.d_rate = nx.device_array(self.buckets, np.float32)

    def start(self, clicks: NDArray[np.float32], shows: NDArray[np.float32]) -> nx.Transfer[Host]:
        c = self.stream.upload(nx.pinned_copy(clicks), to=self.d_clicks)
        s = self.stream.upload(nx.pinned_copy(shows), to=self.d_shows)
        self.stream.launch(smoothed_ctr, 2, 64, self.d_clicks, self.d_shows, self.d_rate, self.alpha, self.beta)
        c.wait().free()
        s.wait().free()
        return self.stream.download(self.d_rate, into=nx.pinned_array(self.buckets, np.float32))

    def finish(self, name: str, down: nx.Transfer[Host], policy: Policy) -> NDArray[np.float32]:
        match policy:
            case Policy.EAGER:
                buf = down.wait()
                self.audit[name] = float(buf.read().mean())
            case Policy.LAZY:
                pass
        buf = down.wait()  # E: transfer-completed-twice
        rates: NDArray[np.float32] = buf.read().copy()
        buf.free()
        return rates


def main() -> None:
    buckets = 256
    rng = np.random.default_rng(13)
    variants = {
        "control": (Policy.LAZY, 0.05),
        "treatment": (Policy.EAGER, 0.07),
    }
    scorer = Scorer(buckets)
    results: dict[str, NDArray[np.float32]] = {}
    for name, (policy, p) in variants.items():
        shows = rng.integers(50, 500, buckets).astype(np.float32)
        clicks = rng.binomial(shows.astype(np.int64), p).astype(np.float32)
        down = scorer.start(clicks, shows)
        results[name] = scorer.finish(name, down, policy)
        expected = (clicks + 1.0) / (shows + 21.0)
        assert np.allclose(results[name], expected, rtol=1e-5), name
    scorer.stream.close()
    lift = float(results["treatment"].mean() / results["control"].mean())
    assert "treatment" in scorer.audit and "control" not in scorer.audit
    print(f"ab_test_scorer: lift {lift:.3f}")


if __name__ == "__main__":
    main()
