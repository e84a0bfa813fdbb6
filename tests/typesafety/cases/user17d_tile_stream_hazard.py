# RUN: raises BorrowError via-call
# XFAIL: miss (line 73): reads lent tile handles after their lend blocks ended (kept past the next tile)
# Planted bug: reads lent tile handles after their lend blocks ended (kept past the next tile)
"""A tile server: each client connection streams rendered map tiles through an async
generator. Tiles are rendered on the device, downloaded into buffers from a shared
``nx.PinnedPool`` and yielded to the connection as lent (read-only) handles; the
buffer goes back to the pool once the connection has consumed the tile.

Each connection assembles its tiles into a strip and checks it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

TILE = 32
Lent = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def render(tile: Any, zoom: float, index: float) -> None:
    for i in range(cuda.grid(1), tile.size, cuda.gridsize(1)):
        tile[i] = zoom * 1000.0 + index * TILE + i


def expected_tile(zoom: int, index: int) -> NDArray[np.float32]:
    return (zoom * 1000.0 + index * TILE + np.arange(TILE)).astype(np.float32)


class TileServer:
    def __init__(self, buffers: int, lanes: int) -> None:
        self.pool: nx.PinnedPool[np.float32] = nx.PinnedPool(buffers, TILE, np.float32)
        self.streams: list[nx.Stream[nx.Owned]] = [nx.stream() for _ in range(lanes)]
        self.idle = list(range(lanes))  # a lane (stream + device tile) per connection
        self.devs = [nx.device_array(TILE, np.float32) for _ in range(lanes)]
        self.served = 0

    async def tiles(self, zoom: int, count: int) -> AsyncGenerator[tuple[int, Lent], None]:
        lane = self.idle.pop()
        s, dev = self.streams[lane], self.devs[lane]
        for index in range(count):
            buf = self.pool.take()
            s.launch(render, 1, 16, dev, float(zoom), float(index))
            buf = await s.download(dev, into=buf)
            with buf.lend() as view:
                yield index, view  # valid until the connection asks for the next tile
            self.pool.give(buf)
            self.served += 1
            await asyncio.sleep(0)  # other connections get a turn
        self.idle.append(lane)

    def close(self) -> None:
        assert len(self.pool) == self.pool.count, "a tile buffer is still out"
        for s, dev in zip(self.streams, self.devs):
            s.close()
            dev.free()


async def connection(server: TileServer, zoom: int, count: int) -> NDArray[np.float32]:
    strip: list[Lent] = []
    checksums: list[float] = []
    async for index, tile in server.tiles(zoom, count):
        checksums.append(float(tile.read().sum(dtype=np.float64)))
        strip.append(tile)  # assembled once every tile has arrived
    assembled = np.concatenate([t.read() for t in strip])  # E: lend-escape
    assert len(checksums) == count
    assert float(assembled.sum(dtype=np.float64)) == sum(checksums)
    return assembled


async def serve(server: TileServer) -> list[NDArray[np.float32]]:
    return list(
        await asyncio.gather(
            connection(server, zoom=1, count=4),
            connection(server, zoom=2, count=3),
        )
    )


def main() -> None:
    server = TileServer(buffers=3, lanes=2)
    strips = asyncio.run(serve(server))
    server.close()
    for zoom, (strip, count) in enumerate(zip(strips, (4, 3)), start=1):
        want = np.concatenate([expected_tile(zoom, i) for i in range(count)])
        assert np.array_equal(strip, want), f"zoom {zoom}"
    assert server.served == 7
    print(f"tile_stream: {server.served} tiles served to {len(strips)} connections")


if __name__ == "__main__":
    main()
