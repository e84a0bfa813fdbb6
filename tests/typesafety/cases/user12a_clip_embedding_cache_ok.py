# RUN: ok
"""Embedding cache filler: bag-of-tokens features projected to embeddings on the device.

Batches of documents' token-count features go through one pinned staging buffer into
the device; an ``nx.kernel`` with declared reads projects them with a weight matrix and
a bias that stay lent for the whole run (both lends held in a ``contextlib.ExitStack``).
Each batch's embeddings are downloaded and stored in an LRU-style cache.
"""

from __future__ import annotations

from collections import OrderedDict
from contextlib import ExitStack
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["x", "w", "b"], writes=["out"])
@cuda.jit
def project(x: Any, w: Any, b: Any, out: Any) -> None:
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        acc = b[j]
        for k in range(x.shape[1]):
            acc += x[i, k] * w[k, j]
        out[i, j] = acc


class EmbeddingCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.entries: OrderedDict[str, NDArray[np.float32]] = OrderedDict()

    def store(self, ids: list[str], emb: NDArray[np.float32]) -> None:
        for doc_id, row in zip(ids, emb):
            self.entries[doc_id] = row.copy()
            self.entries.move_to_end(doc_id)
            while len(self.entries) > self.capacity:
                self.entries.popitem(last=False)


def upload_const(s: nx.Stream[nx.Owned], a: NDArray[np.float32]) -> nx.DeviceArray[nx.Owned, np.float32]:
    dev = nx.device_array(a.shape, np.float32)
    s.upload(nx.pinned_copy(a), to=dev).wait().free()
    return dev


def main() -> None:
    batch, vocab, dim, n_batches = 8, 64, 32, 4
    rng = np.random.default_rng(8)
    w = (rng.standard_normal((vocab, dim)) / 8).astype(np.float32)
    b = rng.standard_normal(dim).astype(np.float32)
    docs = [rng.poisson(0.3, (batch, vocab)).astype(np.float32) for _ in range(n_batches)]
    s = nx.stream()
    d_w, d_b = upload_const(s, w), upload_const(s, b)
    d_x = nx.device_array((batch, vocab), np.float32)
    d_emb = nx.device_array((batch, dim), np.float32)
    staging: Host = nx.pinned_array((batch, vocab), np.float32)
    out_buf: Host = nx.pinned_array((batch, dim), np.float32)
    cache = EmbeddingCache(capacity=24)
    with ExitStack() as stack:
        lw = stack.enter_context(d_w.lend())
        lb = stack.enter_context(d_b.lend())
        for bi, feats in enumerate(docs):
            with staging.write() as a:
                a[:] = feats
            up = s.upload(staging, to=d_x)
            project[(1, 4), (8, 8), s](d_x, lw, lb, d_emb)
            down = s.download(d_emb, into=out_buf)
            staging = up.wait()
            out_buf = down.wait()
            cache.store([f"doc{bi}-{r}" for r in range(batch)], out_buf.read())
    staging.free()
    out_buf.free()
    s.close()
    assert len(cache.entries) == 24 and "doc0-0" not in cache.entries
    got = cache.entries[f"doc{n_batches - 1}-3"]
    assert np.allclose(got, docs[-1][3] @ w + b, atol=1e-4), "embedding mismatch"
    print(f"clip_embedding_cache: {len(cache.entries)} cached embeddings of dim {dim}")


if __name__ == "__main__":
    main()
