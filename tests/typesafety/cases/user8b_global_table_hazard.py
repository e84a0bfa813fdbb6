# RUN: raises BorrowError
# Planted bug: summarize() reads the lent view of the global table after its lend block has ended.
"""A module-level pinned calibration table, built lazily and lent to readers."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]
DevF = nx.DeviceArray[nx.Owned, np.float32]

_TABLE: HostF | None = None
_STREAM: nx.Stream[nx.Owned] | None = None


@nx.kernel(reads=["gain"], writes=["samples"])
@cuda.jit
def apply_gain(samples: Any, gain: Any) -> None:
    for i in range(cuda.grid(1), samples.size, cuda.gridsize(1)):
        samples[i] = samples[i] * gain[i % gain.size]


def stream() -> nx.Stream[nx.Owned]:
    global _STREAM
    if _STREAM is None:
        _STREAM = nx.stream()
    return _STREAM


def table(size: int = 16) -> HostF:
    global _TABLE
    if _TABLE is None:
        _TABLE = nx.pinned_array(size, np.float32)
        with _TABLE.write() as v:
            v[:] = 1.0 + np.arange(size, dtype=np.float32) / size
    return _TABLE


def summarize() -> tuple[float, float]:
    with table().lend() as view:
        lo = float(view.read().min())
    hi = float(view.read().max())  # E: lend-escape
    return lo, hi


def upload_table(gain_dev: DevF) -> None:
    global _TABLE
    t = stream().upload(table(), to=gain_dev)
    _TABLE = t.wait()


def shutdown() -> None:
    global _TABLE, _STREAM
    if _TABLE is not None:
        _TABLE.free()
        _TABLE = None
    if _STREAM is not None:
        _STREAM.close()
        _STREAM = None


def main(n: int = 128) -> float:
    s = stream()
    gain_dev = nx.device_array(table().size, np.float32)
    samples = nx.device_array(n, np.float32)
    upload_table(gain_dev)
    lo, hi = summarize()
    host = s.upload(nx.pinned_copy(np.ones(n, np.float32)), to=samples).wait()
    apply_gain[1, 64, s](samples, gain_dev)
    host = s.download(samples, into=host).wait()
    peak = float(host.read().max())
    assert lo == 1.0 and abs(peak - hi) < 1e-6, (lo, hi, peak)
    shutdown()
    return peak


if __name__ == "__main__":
    main()
