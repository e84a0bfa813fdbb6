# A search over a large table in chunks: a generator uploads chunk after chunk (from two
# pinned buffers it alternates) and yields (chunk index, transfer); the consumer waits
# each transfer, hands the buffer back to the generator through a list, runs a match
# kernel and stops at the first chunk that holds the key. Before it breaks out it takes
# back the buffer of the chunk it stops on; the generator is closed explicitly.
# RUN: ok
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
    for c, t in gen:
        s.upload_staged(np.array([chunk], np.int32), to=d_hit)
        s.launch(find, 1, 32, dev, key, d_hit)
        free.append(t.wait())
        hit = s.download(d_hit, into=hit).wait()
        if int(hit.read()[0]) < chunk:
            found = c * chunk + int(hit.read()[0])
            break
    gen.close()
    s.close()
    return found


if __name__ == "__main__":
    table = np.arange(256, dtype=np.int32)[::-1].copy()
    assert search(table, 100) == 155 and search(table, 1000) == -1
    print("search ok")
