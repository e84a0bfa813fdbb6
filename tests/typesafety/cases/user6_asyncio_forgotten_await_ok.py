# RUN: ok
# An async loader keeps a dict of pending uploads keyed by layer name, awaits all of them
# before launching the kernels, and returns the pinned buffers for reuse.
from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


async def load_layers(
    s: nx.Stream[nx.Lent], weights: dict[str, NDArray[np.float32]], with_bias: bool
) -> tuple[dict[str, Dev], list[Host]]:
    devs: dict[str, Dev] = {}
    pending: dict[str, nx.Transfer[Host]] = {}
    for name, w in weights.items():
        devs[name] = nx.device_array(w.size, np.float32)
        pending[name] = s.upload(nx.pinned_copy(w), to=devs[name])
    if with_bias:
        bias = nx.pinned_copy(np.ones(weights["w0"].size, dtype=np.float32))
        devs["bias"] = nx.device_array(bias.size, np.float32)
        pending["bias"] = s.upload(bias, to=devs["bias"])
    hosts: list[Host] = []
    for name, t in pending.items():
        hosts.append(await t)
    return devs, hosts


async def main_async(n: int) -> float:
    s = nx.stream()
    weights = {f"w{i}": np.full(n, float(i), dtype=np.float32) for i in range(3)}
    devs, hosts = await load_layers(s, weights, with_bias=True)
    for dev in devs.values():
        s.launch(scale, 1, 64, dev, 2.0)
    out = nx.pinned_array(n, np.float32)
    out = await s.download(devs["w2"], into=out)
    s.close()
    return float(out.read()[0])


def main(n: int = 64) -> float:
    value = asyncio.run(main_async(n))
    assert value == 4.0, value
    return value


if __name__ == "__main__":
    main()
