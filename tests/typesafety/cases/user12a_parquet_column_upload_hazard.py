# RUN: raises UseAfterTransferError
# Planted bug: the column statistics are computed from the buffer after stage_column() (an nx.Consumed helper) has moved it into the upload.
"""Columnar table upload: per-column z-score normalisation on the device.

A table (dict of numpy columns, as read from a Parquet row group) is pushed column by
column. A helper declared with ``nx.Consumed`` stages a pinned column buffer into the
device; column statistics are computed from the buffer on the host before it is
handed over, and the normalised column comes back into the same buffer.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def zscore(col: Any, mean: float, inv_std: float) -> None:
    for i in range(cuda.grid(1), col.size, cuda.gridsize(1)):
        col[i] = (col[i] - mean) * inv_std


@dataclass(frozen=True)
class ColumnStats:
    mean: float
    std: float

    @classmethod
    def of(cls, values: NDArray[np.float32]) -> ColumnStats:
        v = values.astype(np.float64)
        return cls(float(v.mean()), float(v.std()) or 1.0)


def stage_column(
    buf: nx.Consumed[Host], s: nx.Stream[nx.Lent], dev: Dev
) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


def normalise_table(table: dict[str, NDArray[np.float32]]) -> tuple[dict[str, NDArray[np.float32]], dict[str, ColumnStats]]:
    rows = len(next(iter(table.values())))
    s = nx.stream()
    dev = nx.device_array(rows, np.float32)
    buf: Host = nx.pinned_array(rows, np.float32)
    out: dict[str, NDArray[np.float32]] = {}
    stats: dict[str, ColumnStats] = {}
    for name, values in table.items():
        with buf.write() as a:
            a[:] = values
        t = stage_column(buf, s, dev)
        stats[name] = ColumnStats.of(buf.read())  # E: use-after-transfer
        st = stats[name]
        s.launch(zscore, 4, 64, dev, st.mean, 1.0 / st.std)
        buf = s.download(dev, into=t).wait()
        out[name] = buf.read().copy()
    buf.free()
    dev.free()
    s.close()
    return out, stats


def main() -> None:
    rows = 2048
    rng = np.random.default_rng(6)
    names = ["price", "qty", "discount", "latency_ms"]
    scales = itertools.accumulate([1.0, 3.0, 0.5, 10.0], lambda a, b: a * b)
    table = {n: (rng.standard_normal(rows) * sc + 5.0).astype(np.float32) for n, sc in zip(names, scales)}
    out, stats = normalise_table(table)
    for name, col in out.items():
        assert abs(float(col.mean())) < 1e-3 and abs(float(col.std()) - 1.0) < 1e-3, name
        assert abs(stats[name].mean - float(table[name].mean())) < 1e-3
    print(f"parquet_column_upload: {len(out)} columns of {rows} rows normalised")


if __name__ == "__main__":
    main()
