# RUN: ok
# Functions taking a Lent handle keep it only in local containers, or keep what they
# read from it (its shape) in a module-level registry.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

View = nx.DeviceArray[nx.Lent, np.float32]
_SHAPES: dict[str, tuple[int, ...]] = {}


def register(name: str, view: View) -> None:
    _SHAPES[name] = view.shape
    batch: list[View] = []
    batch.append(view)
    print(len(batch))


dev = nx.device_array(4, np.float32)
with dev.lend() as v:
    register("dev", v)
print(_SHAPES)
