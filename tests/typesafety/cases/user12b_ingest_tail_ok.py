# RUN: ok
"""Streaming ingest: a generator tails a record source, packs each batch of records into
a pinned slot taken from a small ring and yields the pending upload; the consumer reduces
each batch on the device and returns the slot to the ring."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def row_sum(batch: Any, out: Any, slot: int) -> None:
    i = cuda.grid(1)
    if i == 0:
        acc = 0.0
        for k in range(batch.size):
            acc += batch[k]
        out[slot] = acc


def tail(records: int, width: int) -> Iterator[NDArray[np.float32]]:
    for r in range(records):
        yield np.full(width, float(r), dtype=np.float32)


class SlotRing:
    def __init__(self, slots: int, width: int) -> None:
        self.free: list[Host] = [nx.pinned_array(width, np.float32) for _ in range(slots)]

    def acquire(self) -> Host:
        return self.free.pop(0)

    def release(self, buf: Host) -> None:
        self.free.append(buf)

    def close(self) -> None:
        for buf in self.free:
            buf.free()


def staged(
    s: nx.Stream[nx.Owned], ring: SlotRing, dev: nx.DeviceArray[nx.Owned, np.float32],
    source: Iterable[NDArray[np.float32]], sent: list[float],
) -> Iterator[tuple[int, nx.Transfer[Host]]]:
    for i, record in enumerate(source):
        buf = ring.acquire()
        with buf.write() as a:
            a[:] = record
        sent.append(float(buf.read().sum(dtype=np.float64)))
        up = s.upload(buf, to=dev)
        yield i, up


def main() -> None:
    records, width = 6, 64
    s = nx.stream()
    ring = SlotRing(2, width)
    dev = nx.device_array(width, np.float32)
    sums_dev = nx.device_array(records, np.float32)
    sent: list[float] = []
    for i, up in staged(s, ring, dev, tail(records, width), sent):
        s.launch(row_sum, 1, 32, dev, sums_dev, i)
        ring.release(up.wait())
    out = s.download(sums_dev, into=nx.pinned_array(records, np.float32)).wait()
    sums = [float(x) for x in out.read()]
    out.free()
    ring.close()
    s.close()
    assert sums == sent == [float(r * width) for r in range(records)]
    print("ingested", sums)


if __name__ == "__main__":
    main()
