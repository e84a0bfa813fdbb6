# RUN: ok
"""Asynchronous checkpointing of a model's device tensors through a registry of transfers.

``CheckpointWriter.snapshot()`` starts one download per named tensor into its own pinned
buffer and files the transfer under the tensor's name. ``step()`` needs the step counter
early (it names the checkpoint), so it completes that one transfer first; ``flush()``
completes whatever is still registered. ``restore()`` uploads a checkpoint into fresh
device tensors, which are then compared with the originals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def sgd_step(w: Any, g: Any, lr: float) -> None:
    for i in range(cuda.grid(1), w.size, cuda.gridsize(1)):
        w[i] -= lr * g[i]


@cuda.jit
def bump(counter: Any) -> None:
    if cuda.grid(1) == 0:
        counter[0] += 1.0


@dataclass
class Checkpoint:
    step: int
    tensors: dict[str, NDArray[np.float32]] = field(default_factory=dict)


class CheckpointWriter:
    def __init__(self, shapes: dict[str, int]) -> None:
        self.buffers: dict[str, Host] = {k: nx.pinned_array(n, np.float32) for k, n in shapes.items()}
        self.inflight: dict[str, nx.Transfer[Host]] = {}

    def snapshot(self, params: dict[str, Dev], s: nx.Stream[nx.Lent]) -> None:
        for name, dev in params.items():
            self.inflight[name] = s.download(dev, into=self.buffers.pop(name))

    def step(self) -> int:
        buf = self.inflight.pop("step").wait()  # needed now: it names the checkpoint
        value = int(buf.read()[0])
        self.buffers["step"] = buf
        return value

    def flush(self, step: int) -> Checkpoint:
        ckpt = Checkpoint(step)
        for name, t in list(self.inflight.items()):
            self.buffers[name] = t.wait()
        self.inflight.clear()
        for name, buf in self.buffers.items():
            ckpt.tensors[name] = buf.read().copy()
        return ckpt


def restore(ckpt: Checkpoint, s: nx.Stream[nx.Lent]) -> dict[str, Dev]:
    params: dict[str, Dev] = {}
    for name, values in ckpt.tensors.items():
        dev = nx.device_array(values.size, np.float32)
        host = s.upload(nx.pinned_copy(values), to=dev).wait()
        host.free()
        params[name] = dev
    return params


def main(n: int = 128, steps: int = 5) -> None:
    rng = np.random.default_rng(5)
    w0 = rng.normal(size=n).astype(np.float32)
    g = rng.normal(size=n).astype(np.float32)
    s = nx.stream()
    params: dict[str, Dev] = {}
    for name, values in (("weight", w0), ("grad", g), ("step", np.zeros(1, np.float32))):
        params[name] = nx.device_array(values.size, np.float32)
        s.upload(nx.pinned_copy(values), to=params[name]).wait().free()

    writer = CheckpointWriter({k: v.size for k, v in params.items()})
    for _ in range(steps):
        s.launch(sgd_step, 1, 64, params["weight"], params["grad"], 0.1)
        s.launch(bump, 1, 1, params["step"])
    writer.snapshot(params, s)
    step = writer.step()
    ckpt = writer.flush(step)

    restored = restore(ckpt, s)
    check = nx.pinned_array(n, np.float32)
    check = s.download(restored["weight"], into=check).wait()
    s.close()

    want = w0.copy()
    for _ in range(steps):
        want -= np.float32(0.1) * g
    assert ckpt.step == steps, ckpt.step
    assert np.allclose(ckpt.tensors["weight"], want, atol=1e-6)
    assert np.array_equal(check.read(), ckpt.tensors["weight"])
    print(f"checkpoint_registry: step {ckpt.step}, {len(ckpt.tensors)} tensors saved and restored")


if __name__ == "__main__":
    main()
