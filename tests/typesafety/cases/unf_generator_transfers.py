# Transfers a generator makes and yields to a `for` loop: each is the loop's alone, so
# leaving one unfinished (break, continue, an early return) is unfinished-transfer,
# reported at the loop (where the transfer comes from).
from __future__ import annotations

from collections.abc import Generator, Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def downloads(s: nx.Stream[nx.Lent], tiles: list[Dev]) -> Iterator[nx.Transfer[Host]]:
    for tile in tiles:
        yield s.download(tile, into=nx.pinned_array(tile.shape, np.float32))


def numbered(
    s: nx.Stream[nx.Lent], tiles: list[Dev]
) -> Generator[tuple[int, nx.Transfer[Host]], None, None]:
    for k, tile in enumerate(tiles):
        yield k, s.download(tile, into=nx.pinned_array(tile.shape, np.float32))


def first_big(s: nx.Stream[nx.Lent], tiles: list[Dev], cap: int) -> float:
    for t in downloads(s, tiles):  # E: unfinished-transfer "\"t\"" "may be left unfinished"
        if cap <= 0:
            return -1.0
        cap -= 1
        h = t.wait()
        if float(h.read()[0]) > 1.0:
            return float(h.read()[0])
    return 0.0


def skip_odd(s: nx.Stream[nx.Lent], tiles: list[Dev]) -> float:
    total = 0.0
    for k, t in numbered(s, tiles):  # E: unfinished-transfer "may be dropped here" # E: unfinished-transfer "may be left unfinished"
        if k % 2:
            continue
        total += float(t.wait().read()[0])
    return total


def through_variable(s: nx.Stream[nx.Lent], tiles: list[Dev], limit: float) -> float:
    gen = downloads(s, tiles)
    total = 0.0
    for t in gen:  # E: unfinished-transfer "may be left unfinished"
        if total > limit:
            break
        total += float(t.wait().read()[0])
    return total
