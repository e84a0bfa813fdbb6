# Batch inference over a long feature vector with nx.Pipeline: the input and output
# pinned arrays move into the run, the step kernel runs per chunk on a ring of
# streams, and both arrays come back from run.wait(). The reference result is
# computed from the numpy copy of the features, kept aside.
# The bug: the progress message counts the positive features from the input array,
# which the run owns until run.wait().
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["x"], writes=["y"])
@cuda.jit
def relu_affine(x: Any, y: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = 0.5 * x[i] - 1.0
        y[i] = v if v > 0.0 else 0.0


def step(s: nx.Stream[nx.Lent], x: nx.DeviceArray[nx.Owned, np.float32], y: nx.DeviceArray[nx.Owned, np.float32]) -> None:
    relu_affine[1, 32, s](x, y)


def infer(features: Host, chunk: int) -> tuple[Host, Host]:
    out = nx.pinned_array(features.shape, np.float32)
    pipe = nx.Pipeline(chunk, np.float32, slots=2)
    run = pipe.map(features, into=out, step=step)
    positive = int((features.read() > 2.0).sum())  # E: use-after-transfer "\"features\""
    print(f"mapping {out.size} features ({positive} active) in chunks of {chunk}")
    features, out = run.wait()
    return features, out


def main(n: int = 200, chunk: int = 64) -> None:
    raw = np.linspace(-4.0, 8.0, n, dtype=np.float32)
    features = nx.pinned_copy(raw)
    features, scores = infer(features, chunk)
    expected = np.maximum(0.5 * raw - 1.0, 0.0)
    assert np.allclose(scores.read(), expected)
    assert np.array_equal(features.read(), raw)  # the input is home and unchanged


if __name__ == "__main__":
    main()
