# RUN: ok
"""Retrying uploader: each chunk is uploaded, verified on the device, retried on mismatch.

``Uploader.send`` uploads a pinned chunk, launches a probe kernel and downloads the
probed value. A flaky verifier (simulating a transient link error) rejects the first
attempt of some chunks; the retry path takes the buffer back from the transfer before it
refills it and tries again, up to ``max_attempts``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class TransientLinkError(RuntimeError):
    pass


@cuda.jit
def probe(a: Any, out: Any) -> None:
    i = cuda.grid(1)
    if i == 0:
        out[0] = a[0]


@dataclass
class FlakyVerifier:
    fail_first: set[int]
    calls: dict[int, int] = field(default_factory=dict)

    def check(self, chunk_id: int, expected: float, got: float) -> None:
        n = self.calls.get(chunk_id, 0)
        self.calls[chunk_id] = n + 1
        if n == 0 and chunk_id in self.fail_first:
            raise TransientLinkError(f"chunk {chunk_id}: link reset")
        if expected != got:
            raise ValueError(f"chunk {chunk_id}: {expected} != {got}")


class Uploader:
    def __init__(self, width: int, verifier: FlakyVerifier, max_attempts: int = 3) -> None:
        self.width = width
        self.verifier = verifier
        self.max_attempts = max_attempts
        self.stream = nx.stream()
        self.dev = nx.device_array(width, np.float32)
        self.sum_dev = nx.device_array(1, np.float32)
        self.buf: Host = nx.pinned_array(width, np.float32)
        self.sum_host: Host = nx.pinned_array(1, np.float32)
        self.retries = 0

    def _fill(self, data: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        with self.buf.write() as view:
            view[:] = data

    def send(self, chunk_id: int, data: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        for attempt in range(self.max_attempts):
            self._fill(data)
            up = self.stream.upload(self.buf, to=self.dev)
            self.stream.launch(probe, 1, 32, self.dev, self.sum_dev)
            try:
                self.sum_host = self.stream.download(self.sum_dev, into=self.sum_host).wait()
                self.verifier.check(chunk_id, float(data[0]), float(self.sum_host.read()[0]))
            except TransientLinkError:
                self.retries += 1
                continue
            finally:
                self.buf = up.wait()
            return
        raise RuntimeError(f"chunk {chunk_id} failed after {self.max_attempts} attempts")


def main() -> None:
    width = 64
    verifier = FlakyVerifier(fail_first={1, 3})
    up = Uploader(width, verifier)
    for chunk_id in range(4):
        data = np.zeros(width, dtype=np.float32)
        data[0] = float(chunk_id + 1)
        up.send(chunk_id, data)
    up.stream.close()
    assert up.retries == 2, up.retries
    print("retrying_upload ok", dict(verifier.calls))


if __name__ == "__main__":
    main()
