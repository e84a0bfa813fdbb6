# RUN: ok
"""Result collector for an A/B evaluation job.

Each variant's scores are computed on the device and downloaded into a pinned buffer.
A ResultCollector keeps per-variant summaries; ``record`` reads a buffer that is home
(the caller completes the download first). Summaries are formatted by small closures
registered per metric.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
from numba import cuda

import numbaxfer as nx

Host: TypeAlias = nx.PinnedArray[nx.Owned, np.float32]
Metric: TypeAlias = Callable[[np.ndarray[Any, np.dtype[np.float32]]], float]


@cuda.jit
def evaluate(x: Any, out: Any, weight: float) -> None:
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * weight


def make_threshold(th: float) -> Metric:
    def frac_above(v: np.ndarray[Any, np.dtype[np.float32]]) -> float:
        return float((v > th).mean())

    return frac_above


@dataclass
class ResultCollector:
    metrics: dict[str, Metric] = field(default_factory=dict)
    rows: dict[str, dict[str, float]] = field(default_factory=dict)

    def record(self, variant: str, buf: Host) -> None:
        values = buf.read()
        self.rows[variant] = {name: m(values) for name, m in self.metrics.items()}


def run_variant(
    s: nx.Stream[nx.Owned], x_dev: nx.DeviceArray[nx.Owned, np.float32], weight: float,
    collector: ResultCollector, name: str,
) -> Host:
    out_dev = nx.device_array(x_dev.size, np.float32)
    s.launch(evaluate, (x_dev.size + 63) // 64, 64, x_dev, out_dev, weight)
    out = nx.pinned_array(x_dev.size, np.float32)
    down = s.download(out_dev, into=out)
    out = down.wait()
    collector.record(name, out)
    return out


def main() -> None:
    n = 400
    s = nx.stream()
    x_host = nx.pinned_copy(np.linspace(0.0, 1.0, n, dtype=np.float32))
    x_dev = nx.device_array(n, np.float32)
    x_host = s.upload(x_host, to=x_dev).wait()
    collector = ResultCollector()
    collector.metrics["mean"] = lambda v: float(v.mean())
    collector.metrics["above_half"] = make_threshold(0.5)
    outs = [run_variant(s, x_dev, w, collector, f"w={w}") for w in (0.5, 1.0, 2.0)]
    s.close()
    assert len(outs) == 3
    assert abs(collector.rows["w=1.0"]["mean"] - 0.5) < 1e-5, collector.rows
    assert collector.rows["w=0.5"]["above_half"] == 0.0
    print("result_collector ok", collector.rows)


if __name__ == "__main__":
    main()
