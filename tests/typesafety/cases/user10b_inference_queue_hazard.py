# RUN: raises UseAfterTransferError
# Planted bug: submit() logs the mean of the pinned input right after it was moved into the upload.
"""Inference request queue: requests are batched, uploaded, scored and downloaded.

An InferenceQueue keeps a dict of in-flight requests keyed by request id. Each request
owns a pinned input buffer and a pinned output buffer; the queue shares one device
input and one device output per slot through attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

F32 = np.float32
HostBuf = nx.PinnedArray[nx.Owned, np.float32]
DevBuf = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def score(x: Any, y: Any, w: float) -> None:
    i = cuda.grid(1)
    if i < x.size:
        y[i] = x[i] * w + 0.5


@dataclass
class Request:
    rid: int
    features: np.ndarray[Any, np.dtype[np.float32]]


@dataclass
class InFlight:
    rid: int
    download: nx.Transfer[HostBuf]
    upload: nx.Transfer[HostBuf]


@dataclass
class InferenceQueue:
    width: int
    weight: float = 2.0
    stream: nx.Stream[nx.Owned] = field(default_factory=nx.stream)
    pending: dict[int, InFlight] = field(default_factory=dict)
    results: dict[int, float] = field(default_factory=dict)
    log: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.dev_in: DevBuf = nx.device_array(self.width, F32)
        self.dev_out: DevBuf = nx.device_array(self.width, F32)

    def submit(self, req: Request) -> None:
        host_in = nx.pinned_array(self.width, F32)
        with host_in.write() as view:
            view[:] = req.features
        up = self.stream.upload(host_in, to=self.dev_in)
        self.log.append(float(host_in.read().mean()))  # E: use-after-transfer
        blocks = (self.width + 127) // 128
        self.stream.launch(score, blocks, 128, self.dev_in, self.dev_out, self.weight)
        host_out = nx.pinned_array(self.width, F32)
        down = self.stream.download(self.dev_out, into=host_out)
        self.pending[req.rid] = InFlight(req.rid, down, up)

    def collect(self) -> None:
        for rid in sorted(self.pending):
            item = self.pending.pop(rid)
            item.upload.wait()
            out = item.download.wait()
            self.results[rid] = float(out.read().sum(dtype=np.float64))

    def shutdown(self) -> None:
        self.collect()
        self.stream.close()


def main() -> None:
    width = 256
    q = InferenceQueue(width)
    for rid in range(4):
        q.submit(Request(rid, np.full(width, float(rid), dtype=F32)))
        q.collect()
    q.shutdown()
    expected = {rid: width * (rid * 2.0 + 0.5) for rid in range(4)}
    assert q.results == expected, q.results
    print("inference_queue ok", q.results)


if __name__ == "__main__":
    main()
