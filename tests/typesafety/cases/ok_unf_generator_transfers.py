# Transfers a generator yields, each completed or handed on by the loop; and generators
# yielding transfers some container also keeps (not the loop's alone: not checked).
# RUN: ok
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def downloads(s: nx.Stream[nx.Lent], tiles: list[Dev]) -> Iterator[nx.Transfer[Host]]:
    for tile in tiles:
        yield s.download(tile, into=nx.pinned_array(tile.shape, np.float32))


def kept(ups: list[nx.Transfer[Host]]) -> Iterator[nx.Transfer[Host]]:
    for t in ups:
        yield t


def all_waited(s: nx.Stream[nx.Lent], tiles: list[Dev]) -> float:
    total = 0.0
    for t in downloads(s, tiles):
        total += float(t.wait().read()[0])
    return total


def handed_on(s: nx.Stream[nx.Lent], tiles: list[Dev]) -> list[Host]:
    pending: list[nx.Transfer[Host]] = []
    for t in downloads(s, tiles):
        pending.append(t)
    return [t.wait() for t in pending]


def first_of_kept(s: nx.Stream[nx.Lent], tiles: list[Dev]) -> list[Host]:
    ups = [s.download(d, into=nx.pinned_array(d.shape, np.float32)) for d in tiles]
    for t in kept(ups):
        if t.done():
            break  # the list still holds every transfer
    return [t.wait() for t in ups]


def either(s: nx.Stream[nx.Lent], tiles: list[Dev], fresh: bool) -> list[Host]:
    ups = [s.download(d, into=nx.pinned_array(d.shape, np.float32)) for d in tiles]
    if fresh:
        gen = downloads(s, tiles)
        for t in ups:
            t.wait()
        ups = list(gen)
    else:
        gen = iter(ups)
    for t in gen:
        break  # on the second path the list still holds every transfer
    return [t.wait() for t in ups]


def main() -> None:
    s = nx.stream()
    tiles = [nx.device_array(4, np.float32) for _ in range(3)]
    for d in tiles:
        s.upload_staged(np.ones(4, dtype=np.float32), to=d).wait()
    total = all_waited(s, tiles)
    hosts = handed_on(s, tiles) + first_of_kept(s, tiles) + either(s, tiles, False)
    assert total == 3.0 and len(hosts) == 9, (total, len(hosts))
    s.close()


if __name__ == "__main__":
    main()
