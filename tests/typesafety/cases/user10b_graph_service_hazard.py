# RUN: raises UseAfterTransferError
# Planted bug: handle() scrubs the request buffer right after replay(), while the replay still owns it.
"""Graph-backed scoring service: the upload/kernel/download is captured once and
replayed per request.

``GraphService`` owns a stream, device buffers and a pair of pinned host buffers
(request in, response out). ``warm_up`` captures the work into an ``nx.Graph``; each
``handle`` fills the request buffer, replays the graph (both buffers move into the
run) and takes them back from ``run.wait()`` before reading the response.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 3.0 * src[i] - 1.0


class GraphService:
    def __init__(self, width: int) -> None:
        self.width = width
        self.stream = nx.stream()
        self.d_in = nx.device_array(width, np.float32)
        self.d_out = nx.device_array(width, np.float32)
        self.req: Host = nx.pinned_array(width, np.float32)
        self.resp: Host = nx.pinned_array(width, np.float32)
        self.graph: nx.Graph | None = None
        self.served = 0

    def warm_up(self) -> None:
        with nx.capture(self.stream) as cap:
            up = self.stream.upload(self.req, to=self.d_in)
            self.stream.launch(affine, (self.width + 63) // 64, 64, self.d_in, self.d_out)
            down = self.stream.download(self.d_out, into=self.resp)
        self.req, self.resp = up.wait(), down.wait()
        self.graph = cap.graph

    def handle(self, payload: np.ndarray[Any, np.dtype[np.float32]]) -> float:
        assert self.graph is not None
        with self.req.write() as view:
            view[:] = payload
        run = self.graph.replay(self.req, self.resp)
        with self.req.write() as view:  # E: use-after-transfer
            view[:] = 0.0
        self.req, self.resp = run.wait()
        self.served += 1
        return float(self.resp.read().sum(dtype=np.float64))

    def close(self) -> None:
        if self.graph is not None:
            self.graph.close()
        self.stream.close()


def main() -> None:
    width = 128
    svc = GraphService(width)
    svc.warm_up()
    answers = [svc.handle(np.full(width, float(k), dtype=np.float32)) for k in range(4)]
    svc.close()
    assert answers == [width * (3.0 * k - 1.0) for k in range(4)], answers
    print("graph_service ok", answers, svc.served)


if __name__ == "__main__":
    main()
