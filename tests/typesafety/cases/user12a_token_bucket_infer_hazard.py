# RUN: raises StreamClosedError via-call
# XFAIL: miss (line 112): the server's __exit__ closes its backend's stream (server.backend.stream, two attributes deep) and flush() then uploads through the backend; closes of a stream held by an attribute's attribute are not followed
# Planted bug: the leftover requests are flushed after the `with server:` block, whose __exit__ already closed the GPU backend's stream.
"""Rate-limited inference server: a token bucket decides when a request batch flushes.

Requests (feature vectors) queue up in a deque; whenever the token bucket has enough
tokens the server flushes a batch through a backend. Backends follow a
``typing.Protocol``; the GPU backend owns a stream that the server closes on exit.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def relu_affine(x: Any, y: Any, scale: float, bias: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = scale * x[i] + bias
        y[i] = v if v > 0.0 else 0.0


class Backend(Protocol):
    def infer(self, batch: NDArray[np.float32]) -> NDArray[np.float32]: ...
    def shutdown(self) -> None: ...


class GpuBackend:
    def __init__(self, width: int, scale: float, bias: float) -> None:
        self.width, self.scale, self.bias = width, scale, bias
        self.stream = nx.stream()
        self.x = nx.device_array(width, np.float32)
        self.y = nx.device_array(width, np.float32)

    def infer(self, batch: NDArray[np.float32]) -> NDArray[np.float32]:
        flat = np.zeros(self.width, dtype=np.float32)
        flat[: batch.size] = batch.ravel()
        host = self.stream.upload(nx.pinned_copy(flat), to=self.x).wait()
        self.stream.launch(relu_affine, 4, 64, self.x, self.y, self.scale, self.bias)
        host = self.stream.download(self.y, into=host).wait()
        out: NDArray[np.float32] = host.read()[: batch.size].reshape(batch.shape).copy()
        host.free()
        return out

    def shutdown(self) -> None:
        self.stream.close()


@dataclass
class TokenBucket:
    capacity: float
    rate: float
    tokens: float = 0.0

    def tick(self) -> None:
        self.tokens = min(self.capacity, self.tokens + self.rate)

    def take(self, cost: float) -> bool:
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


@dataclass
class InferenceServer:
    backend: Backend
    bucket: TokenBucket
    batch_size: int = 4
    queue: deque[NDArray[np.float32]] = field(default_factory=deque)
    answers: list[NDArray[np.float32]] = field(default_factory=list)

    def __enter__(self) -> InferenceServer:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.backend.shutdown()

    def submit(self, request: NDArray[np.float32]) -> None:
        self.queue.append(request)
        self.bucket.tick()
        if len(self.queue) >= self.batch_size and self.bucket.take(1.0):
            self.flush()

    def flush(self) -> None:
        if not self.queue:
            return
        batch = np.stack([self.queue.popleft() for _ in range(min(self.batch_size, len(self.queue)))])
        self.answers.extend(self.backend.infer(batch))


def main() -> None:
    width, dim = 256, 16
    rng = np.random.default_rng(2)
    requests = [rng.standard_normal(dim).astype(np.float32) for _ in range(22)]
    server = InferenceServer(GpuBackend(width, 1.5, 0.1), TokenBucket(capacity=2.0, rate=0.3))
    with server:
        for req in requests:
            server.submit(req)
    while server.queue:
        server.flush()  # E: use-after-transfer
    got = np.stack(server.answers)
    expected = np.maximum(1.5 * np.stack(requests) + 0.1, 0.0)
    assert got.shape == expected.shape and np.allclose(got, expected, atol=1e-5)
    print(f"token_bucket_infer: {len(server.answers)} answers")


if __name__ == "__main__":
    main()
