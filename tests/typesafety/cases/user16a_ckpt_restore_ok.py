# RUN: ok
"""Restoring a model checkpoint onto the device: every layer's weights are read from a
blob into its own pinned staging buffer, verified against a stored checksum and
uploaded; uploads of earlier layers overlap the verification of later ones.

A checksum mismatch aborts the restore: the handler scrubs every staging buffer (the
blob may hold sensitive weights) before the error goes up, so it must first take back
the buffers the uploads still hold.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class ChecksumError(Exception):
    pass


def checksum(a: NDArray[Any]) -> int:
    return zlib.crc32(a.tobytes())


class Restorer:
    def __init__(self, shapes: dict[str, int]) -> None:
        self.stream = nx.stream()
        self.staging: dict[str, Host] = {k: nx.pinned_array(n, np.float32) for k, n in shapes.items()}
        self.weights: dict[str, Dev] = {k: nx.device_array(n, np.float32) for k, n in shapes.items()}
        self.scrubbed = 0

    def restore(self, blob: dict[str, tuple[NDArray[np.float32], int]]) -> None:
        pending: dict[str, nx.Transfer[Host]] = {}
        try:
            for name, (values, crc) in blob.items():
                buf = self.staging[name]
                with buf.write() as a:
                    a[:] = values
                if checksum(buf.read()) != crc:
                    raise ChecksumError(f"layer {name!r} is corrupt")
                pending[name] = self.stream.upload(buf, to=self.weights[name])
        except ChecksumError:
            for name, up in pending.items():
                self.staging[name] = up.wait()
            pending.clear()
            for name, buf in self.staging.items():
                with buf.write() as a:
                    a[:] = 0.0
                self.scrubbed += 1
            raise
        finally:
            for name, up in pending.items():
                self.staging[name] = up.wait()

    def fetch(self, name: str) -> NDArray[np.float32]:
        buf = self.stream.download(self.weights[name], into=self.staging[name]).wait()
        self.staging[name] = buf
        out: NDArray[np.float32] = buf.read().copy()
        return out

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    shapes = {"conv1": 256, "conv2": 512, "fc": 128}
    rng = np.random.default_rng(4)
    layers = {k: rng.standard_normal(n).astype(np.float32) for k, n in shapes.items()}
    good = {k: (v, checksum(v)) for k, v in layers.items()}
    bad = dict(good)
    bad["fc"] = (layers["fc"] + np.float32(1.0), good["fc"][1])

    r = Restorer(shapes)
    try:
        r.restore(bad)
    except ChecksumError as e:
        print("restore refused:", e)
    assert r.scrubbed == len(shapes)
    assert all(float(b.read().sum()) == 0.0 for b in r.staging.values())
    r.restore(good)
    for k, v in layers.items():
        assert np.array_equal(r.fetch(k), v), k
    r.close()
    print("ckpt_restore: ok", {k: round(float(v.sum()), 3) for k, v in layers.items()})


if __name__ == "__main__":
    main()
