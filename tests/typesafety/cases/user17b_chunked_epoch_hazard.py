# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 68): refills chunk i-1's part before harvest() takes it back from its in-flight download (write of a moved part)
# Planted bug: refills chunk i-1's part before harvest() takes it back from its in-flight download (write of a moved part)
"""A training loop that streams each epoch through owned chunks of one pinned buffer.

The epoch's samples live in one page-locked allocation, split into owned parts (the
last one ragged). Chunk ``i`` is uploaded on stream ``i % 2``, normalised on the
device, and downloaded back into the same part (a chained download). While chunk ``i``
runs, the trainer harvests chunk ``i - 1`` (takes its part back, adds its loss) and
refills that part with the next epoch's samples.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def center_scale(x: Any, mean: float, inv_std: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        x[i] = (x[i] - mean) * inv_std


class ChunkedTrainer:
    def __init__(self, n: int, chunk: int, mean: float, inv_std: float) -> None:
        self.n, self.chunk = n, chunk
        self.mean, self.inv_std = mean, inv_std
        self.parts: list[Host] = nx.split(nx.pinned_array(n, np.float32), chunk=chunk)
        self.dev_parts: list[Dev] = nx.split(nx.device_array(n, np.float32), chunk=chunk)
        self.streams = [nx.stream(), nx.stream()]
        self.inflight: dict[int, nx.Transfer[Host]] = {}

    def bounds(self, i: int) -> tuple[int, int]:
        return i * self.chunk, min(self.n, (i + 1) * self.chunk)

    def fill(self, i: int, epoch_data: NDArray[np.float32]) -> None:
        lo, hi = self.bounds(i)
        with self.parts[i].write() as a:
            a[:] = epoch_data[lo:hi]

    def launch_chunk(self, i: int) -> None:
        s = self.streams[i % len(self.streams)]
        up = s.upload(self.parts[i], to=self.dev_parts[i])
        s.launch(center_scale, 1, 64, self.dev_parts[i], self.mean, self.inv_std)
        self.inflight[i] = s.download(self.dev_parts[i], into=up)

    def harvest(self, i: int) -> float:
        self.parts[i] = self.inflight.pop(i).wait()
        x = self.parts[i].read().astype(np.float64)
        return float((x * x).sum())

    def run_epoch(self, next_epoch: NDArray[np.float32] | None) -> float:
        loss = 0.0
        count = len(self.parts)
        for i in range(count):
            self.launch_chunk(i)
            if i > 0:
                if next_epoch is not None:
                    self.fill(i - 1, next_epoch)  # E: use-after-transfer
                loss += self.harvest(i - 1)
        loss += self.harvest(count - 1)
        if next_epoch is not None:
            self.fill(count - 1, next_epoch)
        return loss / self.n

    def close(self) -> NDArray[np.float32]:
        assert not self.inflight, "every chunk must be harvested"
        whole = nx.join(self.parts)
        nx.join(self.dev_parts).free()
        for s in self.streams:
            s.close()
        result: NDArray[np.float32] = whole.read().copy()
        whole.free()
        return result


def main(n: int = 300, chunk: int = 64, epochs: int = 3) -> None:
    rng = np.random.default_rng(11)
    data = [rng.normal(2.0, 0.5, n).astype(np.float32) for _ in range(epochs)]
    mean, inv_std = 2.0, 2.0
    trainer = ChunkedTrainer(n, chunk, mean, inv_std)
    for i in range(len(trainer.parts)):
        trainer.fill(i, data[0])
    losses = []
    for e in range(epochs):
        losses.append(trainer.run_epoch(data[e + 1] if e + 1 < epochs else None))
    last = trainer.close()

    for e in range(epochs):
        z = (data[e] - np.float32(mean)) * np.float32(inv_std)
        want = float((z.astype(np.float64) ** 2).sum()) / n
        assert abs(losses[e] - want) < 1e-6 * max(1.0, want), (e, losses[e], want)
    assert np.allclose(last, (data[-1] - mean) * inv_std, atol=1e-5)
    print(f"chunked_epoch: {epochs} epochs, losses {[round(v, 4) for v in losses]}")


if __name__ == "__main__":
    main()
