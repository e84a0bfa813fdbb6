# RUN: ok
"""Weighted-loss evaluation over a DataLoader that yields ordinary numpy batches.

The loader's label and weight arrays are pageable numpy memory. ``pinned_upload`` is a
context manager that page-locks both in place (``nx.pinned``, no copy), uploads them,
lets the caller enqueue kernels that read them, and completes both uploads before the
pinned block ends. The per-sample losses come back through one reused pinned buffer.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Batch = tuple[NDArray[np.float32], NDArray[np.float32]]


@cuda.jit
def weighted_sq_err(pred: Any, y: Any, w: Any, out: Any) -> None:
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        d = pred[i] - y[i]
        out[i] = w[i] * d * d


class DataLoader:
    """Yields (labels, weights) numpy batches, as a framework's loader would."""

    def __init__(self, labels: NDArray[np.float32], weights: NDArray[np.float32], batch: int) -> None:
        self.labels, self.weights, self.batch = labels, weights, batch

    def __len__(self) -> int:
        return self.labels.size // self.batch

    def __iter__(self) -> Iterator[Batch]:
        for i in range(len(self)):
            sl = slice(i * self.batch, (i + 1) * self.batch)
            yield self.labels[sl].copy(), self.weights[sl].copy()


@contextlib.contextmanager
def pinned_upload(batch: Batch, to: tuple[Dev, Dev], s: nx.Stream[nx.Lent]) -> Iterator[None]:
    """Upload both arrays straight from their own memory; the caller enqueues readers."""
    with nx.pinned(batch[0], batch[1]) as (h_y, h_w):
        ups = [s.upload(h_y, to=to[0]), s.upload(h_w, to=to[1])]
        try:
            yield
        finally:
            for up in ups:
                up.wait()  # the pinned block may end only once both copies have read


def evaluate(preds: NDArray[np.float32], loader: DataLoader) -> list[float]:
    n = loader.batch
    s = nx.stream()
    d_y, d_w = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    d_loss = nx.device_array(n, np.float32)
    d_pred = nx.device_array(preds.size, np.float32)
    s.upload(nx.pinned_copy(preds), to=d_pred).wait().free()
    pred_parts = nx.split(d_pred, chunk=n)
    losses = nx.pinned_array(n, np.float32)
    per_batch: list[float] = []
    for i, batch in enumerate(loader):
        with pinned_upload(batch, (d_y, d_w), s):
            s.launch(weighted_sq_err, 1, 64, pred_parts[i], d_y, d_w, d_loss)
        losses = s.download(d_loss, into=losses).wait()
        per_batch.append(float(losses.read().astype(np.float64).sum()))
    nx.join(pred_parts).free()
    losses.free()
    s.close()
    return per_batch


def main(n: int = 40, batches: int = 5) -> None:
    rng = np.random.default_rng(17)
    labels = rng.integers(0, 2, n * batches).astype(np.float32)
    weights = rng.uniform(0.5, 2.0, n * batches).astype(np.float32)
    preds = rng.uniform(0.0, 1.0, n * batches).astype(np.float32)
    result = evaluate(preds, DataLoader(labels, weights, n))
    for i, got in enumerate(result):
        sl = slice(i * n, (i + 1) * n)
        d = preds[sl] - labels[sl]
        want = float((weights[sl] * d * d).astype(np.float64).sum())
        assert abs(got - want) < 1e-4, (i, got, want)
    print(f"pinned_loader: {len(result)} batches, mean loss {sum(result) / (n * batches):.4f}")


if __name__ == "__main__":
    main()
