# RUN: raises UseAfterTransferError via-call
# Planted bug: roundtrip() computes the staging checksum through _checksum() before the upload that took self.staging has been waited.
"""A tiny request router: handlers registered by path, each staging the request payload
through one shared pinned buffer to the device, scaling it there and replying with a sum."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Handler = Callable[["Request"], "Response"]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


@dataclass
class Request:
    path: str
    payload: NDArray[np.float32]


@dataclass
class Response:
    path: str
    status: int
    total: float = 0.0


class Router:
    def __init__(self, n: int) -> None:
        self.n = n
        self.stream = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.staging: Host = nx.pinned_array(n, np.float32)
        self.routes: dict[str, Handler] = {}
        self.served = 0

    def route(self, path: str) -> Callable[[Handler], Handler]:
        def register(fn: Handler) -> Handler:
            self.routes[path] = fn
            return fn

        return register

    def _stage(self, payload: NDArray[np.float32]) -> nx.Transfer[Host]:
        with self.staging.write() as a:
            a[:] = payload
        return self.stream.upload(self.staging, to=self.dev)

    def _checksum(self) -> float:
        return float(self.staging.read()[:4].sum())

    def roundtrip(self, payload: NDArray[np.float32], factor: float) -> float:
        up = self._stage(payload)
        self.stream.launch(scale, 2, 64, self.dev, factor)
        before = self._checksum()  # E: use-after-transfer
        host = up.wait()
        self.staging = host
        host = self.stream.download(self.dev, into=self.staging).wait()
        self.staging = host
        assert before == float(payload[:4].sum())
        return float(host.read().sum(dtype=np.float64))

    def dispatch(self, req: Request) -> Response:
        handler = self.routes.get(req.path)
        if handler is None:
            return Response(req.path, 404)
        self.served += 1
        return handler(req)

    def close(self) -> None:
        self.staging.free()
        self.dev.free()
        self.stream.close()


def build(n: int) -> Router:
    router = Router(n)

    @router.route("/double")
    def double(req: Request) -> Response:
        return Response(req.path, 200, router.roundtrip(req.payload, 2.0))

    @router.route("/negate")
    def negate(req: Request) -> Response:
        return Response(req.path, 200, router.roundtrip(req.payload, -1.0))

    return router


def main() -> None:
    n = 256
    router = build(n)
    requests = [
        Request("/double", np.ones(n, dtype=np.float32)),
        Request("/negate", np.full(n, 3.0, dtype=np.float32)),
        Request("/missing", np.zeros(n, dtype=np.float32)),
        Request("/double", np.arange(n, dtype=np.float32)),
    ]
    replies = [router.dispatch(r) for r in requests]
    router.close()
    assert [r.status for r in replies] == [200, 200, 404, 200]
    assert replies[0].total == 2.0 * n
    assert replies[1].total == -3.0 * n
    assert replies[3].total == float(n * (n - 1))
    print("served", router.served, [r.total for r in replies])


if __name__ == "__main__":
    main()
