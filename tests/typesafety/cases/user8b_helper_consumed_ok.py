# RUN: ok
"""Packet encoder: helpers that take, hand on and give back pinned buffers."""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

HostU8 = nx.PinnedArray[nx.Owned, np.uint8]
DevU8 = nx.DeviceArray[nx.Owned, np.uint8]


@cuda.jit
def xor_key(a: Any, key: int) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] ^ key


def fill(buf: HostU8, payload: bytes) -> int:
    with buf.write() as v:
        v[:] = 0
        v[: len(payload)] = np.frombuffer(payload, dtype=np.uint8)
    return zlib.crc32(buf.read().tobytes())


def encode(buf: HostU8, s: nx.Stream[nx.Lent], dev: DevU8, key: int) -> nx.Transfer[HostU8]:
    up = s.upload(buf, to=dev)
    s.launch(xor_key, 1, 64, dev, key)
    return up


def fetch(up: nx.Consumed[nx.Transfer[HostU8]], s: nx.Stream[nx.Lent], dev: DevU8) -> HostU8:
    buf = up.wait()
    return s.download(dev, into=buf).wait()


def send_all(payloads: list[bytes], size: int, key: int) -> list[tuple[int, int]]:
    owner = nx.stream()
    dev = nx.device_array(size, np.uint8)
    buf = nx.pinned_array(size, np.uint8)
    sums: list[tuple[int, int]] = []
    with owner.lend() as s:
        for payload in payloads:
            if len(payload) > size:
                continue  # oversize packets are dropped before staging
            plain_crc = fill(buf, payload)
            pending = encode(buf, s, dev, key)
            buf = fetch(pending, s, dev)
            sums.append((plain_crc, zlib.crc32(buf.read().tobytes())))
    buf.free()
    dev.free()
    owner.close()
    return sums


def main() -> list[tuple[int, int]]:
    payloads = [b"hello", b"x" * 100, b"numbaxfer", b"gpu"]
    sums = send_all(payloads, 64, 0x5A)
    assert len(sums) == 3 and all(a != b for a, b in sums), sums
    return sums


if __name__ == "__main__":
    main()
