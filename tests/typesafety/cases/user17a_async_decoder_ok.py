# RUN: ok
"""An asyncio frame decoder: packets of 8-bit samples with a checksum byte are
dequantized on the GPU by a small set of lanes (stream + device buffers).

Each task borrows a lane from an ``asyncio.Queue``, sends the payload up, launches the
dequantize kernel and downloads the result; meanwhile it verifies the packet's
checksum on the host. A corrupt packet is skipped, but its copies are completed first.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class CorruptPacket(Exception):
    pass


@cuda.jit
def dequantize(src: Any, dst: Any, scale: Any, offset: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] * scale + offset


def make_packet(payload: NDArray[np.uint8], corrupt: bool) -> NDArray[np.uint8]:
    check = np.uint8(int(payload.sum()) % 251)
    if corrupt:
        check = np.uint8((int(check) + 1) % 251)
    return np.concatenate([payload, np.array([check], dtype=np.uint8)])


def verify(packet: NDArray[np.uint8]) -> None:
    if int(packet[:-1].sum()) % 251 != int(packet[-1]):
        raise CorruptPacket("checksum mismatch")


@dataclass
class Lane:
    stream: nx.Stream[nx.Owned]
    dev_in: nx.DeviceArray[nx.Owned, np.float32]
    dev_out: nx.DeviceArray[nx.Owned, np.float32]


class AsyncDecoder:
    def __init__(self, samples: int, lanes: int = 2, scale: float = 1 / 255, offset: float = -0.5) -> None:
        self.samples = samples
        self.scale, self.offset = np.float32(scale), np.float32(offset)
        self.lanes: asyncio.Queue[Lane] = asyncio.Queue()
        self.all_lanes = [
            Lane(nx.stream(), nx.device_array(samples, np.float32), nx.device_array(samples, np.float32))
            for _ in range(lanes)
        ]
        for lane in self.all_lanes:
            self.lanes.put_nowait(lane)
        self.skipped: list[int] = []

    async def decode(self, index: int, packet: NDArray[np.uint8]) -> NDArray[np.float32] | None:
        lane = await self.lanes.get()
        try:
            host = nx.pinned_copy(packet[:-1].astype(np.float32))
            up = lane.stream.upload(host, to=lane.dev_in)
            blocks, threads = max(1, self.samples // 256), 64
            lane.stream.launch(dequantize, blocks, threads, lane.dev_in, lane.dev_out,
                               self.scale, self.offset)
            down = lane.stream.download(lane.dev_out, into=up)
            try:
                verify(packet)  # host work while the lane's copies run
            except CorruptPacket:
                self.skipped.append(index)
                (await down).free()  # the buffer comes home before the packet is dropped
                return None
            host = await down
            result = host.read().copy()
            host.free()
            return result
        finally:
            self.lanes.put_nowait(lane)

    def close(self) -> None:
        for lane in self.all_lanes:
            lane.stream.close()


async def run(frames: int, samples: int) -> tuple[list[NDArray[np.float32] | None], list[int], list[NDArray[np.uint8]]]:
    asyncio.get_running_loop().slow_callback_duration = 60.0
    rng = np.random.default_rng(17)
    payloads = [rng.integers(0, 256, samples, dtype=np.uint8) for _ in range(frames)]
    packets = [make_packet(p, corrupt=(i % 3 == 2)) for i, p in enumerate(payloads)]
    decoder = AsyncDecoder(samples)
    decoded = await asyncio.gather(*(decoder.decode(i, p) for i, p in enumerate(packets)))
    decoder.close()
    return list(decoded), sorted(decoder.skipped), payloads


def main(frames: int = 6, samples: int = 256) -> list[int]:
    decoded, skipped, payloads = asyncio.run(run(frames, samples))
    assert skipped == [2, 5], skipped
    for i, out in enumerate(decoded):
        if i in skipped:
            assert out is None
            continue
        assert out is not None
        ref = payloads[i].astype(np.float32) * np.float32(1 / 255) + np.float32(-0.5)
        assert np.allclose(out, ref, atol=1e-6), f"frame {i}"
    return skipped


if __name__ == "__main__":
    result = main()
    print(f"async_decoder: skipped corrupt packets {result}")
