# Dependency injection through a Protocol: the training loop talks to a Sender protocol
# whose send() consumes the batch buffer and returns its transfer; two implementations
# (a direct upload, and one that logs then uploads) are swapped in by configuration.
# Correct: the loop takes the buffer back from the transfer before refilling it.
# RUN: ok
from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def train_step(batch: Any, weights: Any, lr: float) -> None:
    i = cuda.grid(1)
    if i < weights.size:
        weights[i] -= lr * batch[i]


class Sender(Protocol):
    def send(self, buf: nx.Consumed[Host], dev: Dev) -> nx.Transfer[Host]: ...


class DirectSender:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s

    def send(self, buf: nx.Consumed[Host], dev: Dev) -> nx.Transfer[Host]:
        return self.s.upload(buf, to=dev)


class LoggingSender(DirectSender):
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        super().__init__(s)
        self.sent = 0

    def send(self, buf: nx.Consumed[Host], dev: Dev) -> nx.Transfer[Host]:
        self.sent += buf.nbytes
        return super().send(buf, dev)


def train(sender: Sender, s: nx.Stream[nx.Owned], steps: int) -> float:
    batch = nx.pinned_array(N, np.float32)
    d_batch = nx.device_array(N, np.float32)
    weights = nx.device_array(N, np.float32)
    s.upload_staged(np.ones(N, dtype=np.float32), to=weights)
    for step in range(steps):
        with batch.write() as a:
            a[:] = float(step)
        t = sender.send(batch, d_batch)
        s.launch(train_step, 1, N, d_batch, weights, 0.1)
        batch = t.wait()
    out = s.download(weights, into=batch).wait()
    return float(out.read()[0])


def main() -> None:
    s = nx.stream()
    for sender in (DirectSender(s), LoggingSender(s)):
        w0 = train(sender, s, steps=3)
        assert abs(w0 - (1.0 - 0.1 * 3.0)) < 1e-6, w0
    s.close()


main()
