# RUN: ok
"""A checkpoint writer: model parameters on the device are downloaded into pinned
buffers (kept per tensor and reused across checkpoints) and serialized into a sink.

`save()` starts every download first, so they overlap, then writes each tensor as its
download lands. A tensor whose name cannot be stored aborts the save; the downloads
already started must still be completed before the error goes up.
"""

from __future__ import annotations

import io
import struct
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def fill_param(p: Any, seed: float) -> None:
    for i in range(cuda.grid(1), p.size, cuda.gridsize(1)):
        p[i] = seed + 0.001 * i


class CheckpointWriter:
    def __init__(self) -> None:
        self.stream = nx.stream()
        self.buffers: dict[str, Host] = {}
        self.failed_saves = 0

    def _buffer_for(self, name: str, dev: Dev) -> Host:
        buf = self.buffers.pop(name, None)
        if buf is None or buf.size != dev.size:
            buf = nx.pinned_array(dev.size, np.float32)
        return buf

    def save(self, params: dict[str, Dev], sink: io.BytesIO) -> int:
        pending: dict[str, nx.Transfer[Host]] = {}
        try:
            for name, dev in params.items():
                if not name.isidentifier():
                    raise ValueError(f"tensor name {name!r} cannot be stored")
                pending[name] = self.stream.download(dev, into=self._buffer_for(name, dev))
        except ValueError:
            self.failed_saves += 1
            for name, down in pending.items():
                self.buffers[name] = down.wait()
            raise
        written = 0
        for name, down in pending.items():
            buf = down.wait()
            data = buf.read().tobytes()
            key = name.encode()
            sink.write(struct.pack("<II", len(key), len(data)) + key + data)
            written += len(data)
            self.buffers[name] = buf
        return written

    def close(self) -> None:
        self.stream.close()


def load(blob: bytes) -> dict[str, np.ndarray[Any, np.dtype[np.float32]]]:
    out: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
    pos = 0
    while pos < len(blob):
        klen, dlen = struct.unpack_from("<II", blob, pos)
        pos += 8
        key = blob[pos : pos + klen].decode()
        pos += klen
        out[key] = np.frombuffer(blob[pos : pos + dlen], dtype=np.float32).copy()
        pos += dlen
    return out


def main() -> None:
    fill_stream = nx.stream()
    sizes = {"embed": 512, "attn_q": 256, "attn_k": 256, "head": 128}
    params: dict[str, Dev] = {}
    for k, (name, n) in enumerate(sizes.items()):
        params[name] = nx.device_array(n, np.float32)
        fill_stream.launch(fill_param, 2, 64, params[name], float(k))
    fill_stream.synchronize()

    writer = CheckpointWriter()
    first = io.BytesIO()
    writer.save(params, first)

    broken = dict(params)
    broken["bad name"] = nx.device_array(64, np.float32)
    fill_stream.launch(fill_param, 1, 64, broken["bad name"], 9.0)
    try:
        writer.save(broken, io.BytesIO())
    except ValueError as e:
        print("save refused:", e)

    second = io.BytesIO()
    writer.save(params, second)
    writer.close()
    fill_stream.close()

    assert writer.failed_saves == 1
    for blob in (first.getvalue(), second.getvalue()):
        restored = load(blob)
        assert sorted(restored) == sorted(sizes)
        for k, (name, n) in enumerate(sizes.items()):
            expect = np.float32(k) + np.float32(0.001) * np.arange(n, dtype=np.float32)
            assert np.allclose(restored[name], expect, atol=1e-6), name
    print("checkpoint_writer: ok", {k: v.size for k, v in load(second.getvalue()).items()})


if __name__ == "__main__":
    main()
