# A model's weights kept as a dict of named pinned buffers (by layer name) with one
# device buffer per layer: load() fills and uploads every layer, then takes each one
# back by name; norms() reads the host copies.
# Bug: the embedding's maximum is logged while the uploads are still running (the log
# line was moved up, between the two loops).
# (A dict entry moved through an alias, buf = self.host[name], then read by key.)
# RUN: raises UseAfterTransferError
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]

SIZES = {"embed": 32, "fc1": 16, "fc2": 8}


class Model:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.host: dict[str, Host] = {k: nx.pinned_array(n, np.float32) for k, n in SIZES.items()}
        self.dev: dict[str, Dev] = {k: nx.device_array(n, np.float32) for k, n in SIZES.items()}

    def load(self, checkpoint: dict[str, NDArray[np.float32]]) -> None:
        pending: dict[str, nx.Transfer[Host]] = {}
        for name in SIZES:
            buf = self.host[name]
            with buf.write() as a:
                a[:] = checkpoint[name]
            pending[name] = self.s.upload(buf, to=self.dev[name])
        print(f"embedding max {float(self.host['embed'].read().max()):.3f}")  # E: use-after-transfer "embed"
        for name, t in pending.items():
            self.host[name] = t.wait()

    def norms(self) -> dict[str, float]:
        return {k: float(np.linalg.norm(self.host[k].read())) for k in SIZES}

    def close(self) -> None:
        for d in self.dev.values():
            d.free()
        self.s.close()


def main() -> dict[str, float]:
    model = Model()
    ckpt = {k: np.full(n, 0.5, dtype=np.float32) for k, n in SIZES.items()}
    model.load(ckpt)
    norms = model.norms()
    model.close()
    assert all(abs(norms[k] - 0.5 * np.sqrt(n)) < 1e-5 for k, n in SIZES.items()), norms
    return norms


main()
