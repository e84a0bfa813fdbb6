# RUN: raises UseAfterTransferError
# Planted bug: main() reports the first reduction again through state.pending, a transfer that finish() already completed.
"""Block-wise reduction: each block writes a partial sum, the partials come back to the
host, which finishes the reduction; a dataclass carries the in-flight state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]

CHUNK = 128


@cuda.jit
def partial_sums(x: Any, partials: Any, chunk: int) -> None:
    for b in range(cuda.grid(1), partials.size, cuda.gridsize(1)):
        acc = 0.0
        for j in range(b * chunk, min((b + 1) * chunk, x.size)):
            acc += x[j] * x[j]
        partials[b] = acc


@dataclass
class ReductionState:
    label: str
    pending: nx.Transfer[Host]
    result: float = 0.0


class SumOfSquares:
    """Sum of squares of a vector, finished on the host."""

    def __init__(self, n: int, s: nx.Stream[nx.Owned]) -> None:
        self.n = n
        self.s = s
        self.nblocks = (n + CHUNK - 1) // CHUNK
        self.d_x: Dev = nx.device_array(n, np.float64)
        self.d_part: Dev = nx.device_array(self.nblocks, np.float64)

    def start(self, label: str, values: np.ndarray[Any, np.dtype[np.float64]]) -> ReductionState:
        host = nx.pinned_copy(values)
        host = self.s.upload(host, to=self.d_x).wait()
        host.free()
        self.s.launch(partial_sums, 1, 32, self.d_x, self.d_part, CHUNK)
        out = nx.pinned_array(self.nblocks, np.float64)
        return ReductionState(label, self.s.download(self.d_part, into=out))

    def finish(self, state: ReductionState) -> float:
        partials = state.pending.wait()
        state.result = float(partials.read().sum())
        partials.free()
        return state.result


def main() -> None:
    s = nx.stream()
    reducer = SumOfSquares(1000, s)
    vectors = {
        "ones": np.ones(1000),
        "ramp": np.arange(1000, dtype=np.float64) / 1000.0,
    }
    states = [reducer.start(name, v) for name, v in vectors.items()]
    results = {st.label: reducer.finish(st) for st in states}
    first = states[0].pending.wait()  # E: transfer-completed-twice
    print("first partials:", first.read()[:4])
    s.close()
    for name, v in vectors.items():
        assert abs(results[name] - float((v * v).sum())) < 1e-9, name
    print("sum of squares:", {k: round(v, 4) for k, v in results.items()})


if __name__ == "__main__":
    main()
