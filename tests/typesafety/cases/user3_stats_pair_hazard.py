# RUN: warns ResourceWarning anywhere
# Column statistics computed on the device and fetched as a pair of downloads: a helper
# enqueues the kernel and both downloads and returns the two transfers; callers wait
# both, even when they report only one of the statistics.
# The bug: report_means() unpacks the variance transfer into `_` and never completes it.
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def column_stats(table: Any, mean: Any, var: Any) -> None:
    c = cuda.grid(1)
    if c < mean.size:
        rows = table.shape[0]
        acc = 0.0
        for r in range(rows):
            acc += table[r, c]
        m = acc / rows
        sq = 0.0
        for r in range(rows):
            sq += (table[r, c] - m) ** 2
        mean[c] = m
        var[c] = sq / rows


def fetch_stats(s: nx.Stream[nx.Owned], table: nx.DeviceArray[nx.Owned, np.float32], cols: int) -> tuple[nx.Transfer[Host], nx.Transfer[Host]]:
    d_mean = nx.device_array(cols, np.float32)
    d_var = nx.device_array(cols, np.float32)
    s.launch(column_stats, 1, 32, table, d_mean, d_var)
    t_mean = s.download(d_mean, into=nx.pinned_array(cols, np.float32))
    t_var = s.download(d_var, into=nx.pinned_array(cols, np.float32))
    return t_mean, t_var


def report_means(s: nx.Stream[nx.Owned], table: nx.DeviceArray[nx.Owned, np.float32], cols: int) -> list[float]:
    t_mean, _ = fetch_stats(s, table, cols)  # E: unfinished-transfer
    mean = t_mean.wait()
    return [round(float(v), 3) for v in mean.read()]


def main(rows: int = 6, cols: int = 4) -> None:
    s = nx.stream()
    values = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)
    table = nx.device_array((rows, cols), np.float32)
    table_host = s.upload(nx.pinned_copy(values), to=table).wait()
    means = report_means(s, table, cols)
    t_mean, t_var = fetch_stats(s, table, cols)
    var = t_var.wait()
    mean = t_mean.wait()
    s.close()
    assert means == [float(m) for m in values.mean(axis=0)], means
    assert np.allclose(var.read(), values.var(axis=0)) and np.allclose(mean.read(), means)
    assert table_host.shape == (rows, cols)


if __name__ == "__main__":
    main()
