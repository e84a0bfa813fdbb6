# RUN: raises UnfinishedTransferError
# Planted bug: load() completes the second column's upload only after the nx.pinned block has ended, so the block ends under an unfinished transfer.
"""Scoped pinning for a feature-store loader: numpy columns pinned in place.

``ColumnLoader.load`` pins a table's numpy columns in place with ``nx.pinned`` (no
copy), uploads each into its device column, and completes every upload inside the
block so the memory can be unpinned at block exit. A context manager wraps stream
ownership for the loader's lifetime.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Table = dict[str, NDArray[np.float32]]


@cuda.jit
def combine(a: Any, b: Any, out: Any) -> None:
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * b[i]


@contextmanager
def owned_stream() -> Iterator[nx.Stream[nx.Owned]]:
    s = nx.stream()
    yield s
    s.synchronize()
    s.close()


class ColumnLoader:
    def __init__(self, s: nx.Stream[nx.Owned], rows: int) -> None:
        self.s = s
        self.rows = rows
        self.columns: dict[str, Dev] = {}

    def load(self, table: Table, names: tuple[str, str]) -> None:
        a_dev = nx.device_array(self.rows, np.float32)
        b_dev = nx.device_array(self.rows, np.float32)
        with nx.pinned(table[names[0]], table[names[1]]) as (ha, hb):  # E: unfinished-transfer
            up_a = self.s.upload(ha, to=a_dev)
            up_b = self.s.upload(hb, to=b_dev)
            ha = up_a.wait()
        hb = up_b.wait()
        self.columns[names[0]] = a_dev
        self.columns[names[1]] = b_dev

    def product(self, x: str, y: str) -> float:
        out = nx.device_array(self.rows, np.float32)
        blocks = (self.rows + 63) // 64
        self.s.launch(combine, blocks, 64, self.columns[x], self.columns[y], out)
        host = nx.pinned_array(self.rows, np.float32)
        host = self.s.download(out, into=host).wait()
        return float(host.read().sum(dtype=np.float64))


def main() -> None:
    rows = 512
    table: Table = {
        "price": np.full(rows, 2.0, dtype=np.float32),
        "qty": np.arange(rows, dtype=np.float32),
    }
    with owned_stream() as s:
        loader = ColumnLoader(s, rows)
        loader.load(table, ("price", "qty"))
        total = loader.product("price", "qty")
    assert total == 2.0 * sum(range(rows)), total
    table["price"][:] = 0.0  # unpinned, ordinary numpy again
    print("pinned_scope ok", total)


if __name__ == "__main__":
    main()
