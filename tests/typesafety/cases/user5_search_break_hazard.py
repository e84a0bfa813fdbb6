# A chunked search consuming a generator of (index, transfer) pairs (see
# user5_search_break_ok.py). The bug, kind "a transfer never waited (on the break
# path)": the buffer is handed back only when the chunk did not match, so the loop
# breaks out leaving the matching chunk's upload unfinished.
# (Simulator: StreamClosedError at s.close(), naming the upload. No RUN header: the
# static report is at the break, the runtime's at the close.)
# The transfer a generator yields is reported at the loop that takes it (its start line).
from __future__ import annotations

from collections.abc import Generator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.int32]
Dev = nx.DeviceArray[nx.Owned, np.int32]


@cuda.jit
def find(x: Any, key: int, hit: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        if x[i] == key:
            cuda.atomic.min(hit, 0, i)


def uploads(s: nx.Stream[nx.Lent], table: NDArray[np.int32], chunk: int, free: list[Host], dev: Dev) -> Generator[tuple[int, nx.Transfer[Host]], None, None]:
    for c in range(table.size // chunk):
        buf = free.pop()
        with buf.write() as a:
            a[:] = table[c * chunk : (c + 1) * chunk]
        yield c, s.upload(buf, to=dev)


def search(table: NDArray[np.int32], key: int, chunk: int = 32) -> int:
    s = nx.stream()
    dev = nx.device_array(chunk, np.int32)
    d_hit = nx.device_array(1, np.int32)
    hit = nx.pinned_array(1, np.int32)
    free: list[Host] = [nx.pinned_array(chunk, np.int32) for _ in range(2)]
    found = -1
    gen = uploads(s, table, chunk, free, dev)
    for c, t in gen:  # E: unfinished-transfer "\"t\"" "may be left unfinished"
        s.upload_staged(np.array([chunk], np.int32), to=d_hit)
        s.launch(find, 1, 32, dev, key, d_hit)
        hit = s.download(d_hit, into=hit).wait()
        if int(hit.read()[0]) < chunk:
            found = c * chunk + int(hit.read()[0])
            break
        free.append(t.wait())
    gen.close()
    s.close()
    return found


if __name__ == "__main__":
    table = np.arange(256, dtype=np.int32)[::-1].copy()
    assert search(table, 100) == 155 and search(table, 1000) == -1
    print("search ok")
