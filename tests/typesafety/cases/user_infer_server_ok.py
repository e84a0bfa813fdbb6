# An inference server's request handler: requests are validated, copied into a pooled
# pinned buffer, uploaded, run through a kernel and downloaded into another pooled
# buffer; error paths (bad input, a cancelled request, non-finite output) return early
# and every buffer goes back to its pool.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def dense(x: Any, y: Any) -> None:
    i = cuda.grid(1)
    if i < x.size:
        y[i] = 2.0 * x[i] + 1.0


class Server:
    def __init__(self, n: int) -> None:
        self.n = n
        self.s = nx.stream()
        self.inputs: nx.PinnedPool[np.float32] = nx.PinnedPool(2, n, np.float32)
        self.outputs: nx.PinnedPool[np.float32] = nx.PinnedPool(2, n, np.float32)
        self.d_in = nx.device_array(n, np.float32)
        self.d_out = nx.device_array(n, np.float32)

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        x = request.get("x")
        if not isinstance(x, np.ndarray) or x.shape != (self.n,):
            return {"error": "bad input"}
        buf = self.inputs.take()
        with buf.write() as a:
            a[:] = x
        self.inputs.recycle(self.s.upload(buf, to=self.d_in))
        self.s.launch(dense, 1, self.n, self.d_in, self.d_out)
        out = self.outputs.take()
        down = self.s.download(self.d_out, into=out)
        out = down.wait()
        if request.get("cancel"):
            self.outputs.give(out)
            return {"error": "cancelled"}
        try:
            y = out.read().copy()
            if not np.isfinite(y).all():
                return {"error": "non-finite output"}
            return {"y": y}
        finally:
            self.outputs.give(out)

    def close(self) -> None:
        self.inputs.drain()
        self.s.close()


def main(n: int = 16) -> float:
    server = Server(n)
    replies = [
        server.handle({"x": np.linspace(-1, 1, n, dtype=np.float32)}),
        server.handle({"x": "not an array"}),
        server.handle({"x": np.ones(n, dtype=np.float32), "cancel": True}),
        server.handle({"x": np.full(n, np.nan, dtype=np.float32)}),
        server.handle({"x": np.full(n, 2.0, dtype=np.float32)}),
    ]
    server.close()
    errors = [r.get("error") for r in replies]
    assert errors == [None, "bad input", "cancelled", "non-finite output", None], errors
    return float(replies[0]["y"].sum() + replies[4]["y"].sum())


main()
