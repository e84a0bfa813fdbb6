# A pandas-like column batch: a dict of column name -> pinned buffer, uploaded column by
# column into a dict of device arrays; a kernel computes revenue = price * qty; the
# per-column null counts for the log are taken once the uploads have given the columns
# back.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def revenue(price: Any, qty: Any, out: Any) -> None:
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        p = price[i]
        q = qty[i]
        out[i] = p * q if p == p and q == q else 0.0


def process(table: dict[str, NDArray[np.float32]]) -> tuple[float, dict[str, int]]:
    s = nx.stream()
    rows = len(next(iter(table.values())))
    cols: dict[str, Host] = {name: nx.pinned_copy(col) for name, col in table.items()}
    devs: dict[str, Dev] = {name: nx.device_array(rows, np.float32) for name in cols}
    pending: dict[str, nx.Transfer[Host]] = {}
    for name, buf in cols.items():
        pending[name] = s.upload(buf, to=devs[name])
    d_rev = nx.device_array(rows, np.float32)
    s.launch(revenue, 1, 32, devs["price"], devs["qty"], d_rev)
    for name, t in pending.items():
        cols[name] = t.wait()
    nulls = {name: int(np.isnan(buf.read()).sum()) for name, buf in cols.items()}
    h_rev = nx.pinned_array(rows, np.float32)
    h_rev = s.download(d_rev, into=h_rev).wait()
    total = float(h_rev.read().sum())
    s.close()
    return total, nulls


if __name__ == "__main__":
    price = np.array([1.0, 2.0, np.nan, 4.0] * 8, dtype=np.float32)
    qty = np.array([3.0, np.nan, 1.0, 2.0] * 8, dtype=np.float32)
    disc = np.zeros(32, dtype=np.float32)
    total, nulls = process({"price": price, "qty": qty, "discount": disc})
    assert total == 8 * (3.0 + 8.0) and nulls == {"price": 8, "qty": 8, "discount": 0}, (total, nulls)
    print("columns ok")
