# Embedding lookups through a mapped index list (see user5_mapped_gather_ok.py). The
# bug, kind "a mapping's device view used after wait(), and waited twice": the index
# array is mapped once, before the loop over tables, but still waited inside the loop
# (and, with no tables, never waited at all).
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@nx.kernel(reads=["table", "idx"], writes=["out"])
@cuda.jit
def gather(table: Any, idx: Any, out: Any) -> None:
    for i in range(cuda.grid(1), idx.size, cuda.gridsize(1)):
        out[i] = table[idx[i]]


def lookup(tables: dict[str, NDArray[np.float32]], indices: NDArray[np.int32]) -> dict[str, NDArray[np.float32]]:
    s = nx.stream()
    d_tables = {}
    for name, t in tables.items():
        d = nx.device_array(t.size, np.float32)
        s.upload_staged(t, to=d)
        d_tables[name] = d
    idx_m = nx.mapped_array(indices.size, np.int32)
    with idx_m.write() as a:
        a[:] = indices
    d_out = nx.device_array(indices.size, np.float32)
    out = nx.pinned_array(indices.size, np.float32)
    results: dict[str, NDArray[np.float32]] = {}
    mp = s.map(idx_m)  # E: unfinished-transfer "mp"
    for name, d_table in d_tables.items():
        gather[1, 32, s](d_table, mp.device, d_out)  # E: use-after-transfer "device"
        idx_m = mp.wait()  # E: transfer-completed-twice
        out = s.download(d_out, into=out).wait()
        results[name] = out.read().copy()
    s.close()
    return results


if __name__ == "__main__":
    tables = {"user": np.arange(16, dtype=np.float32), "item": np.arange(16, dtype=np.float32) * 10}
    idx = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int32)
    res = lookup(tables, idx)
    assert np.array_equal(res["item"], 10 * idx.astype(np.float32)) and np.array_equal(res["user"], idx)
    print("gather ok")
