# RUN: ok
"""Preprocessing plugin registry: named plugins bound with functools.partial.

Each plugin is ``plugin(stream, host, dev) -> Transfer`` and returns the transfer that
holds the host buffer; the runner waits it and hands the buffer to the next plugin.
Plugins are registered by decorator and specialised with ``functools.partial``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
from numba import cuda

import numbaxfer as nx

Host: TypeAlias = nx.PinnedArray[nx.Owned, np.float32]
Dev: TypeAlias = nx.DeviceArray[nx.Owned, np.float32]
Plugin: TypeAlias = Callable[[nx.Stream[nx.Lent], Host, Dev], nx.Transfer[Host]]

REGISTRY: dict[str, Callable[..., nx.Transfer[Host]]] = {}


def register(name: str) -> Callable[[Callable[..., nx.Transfer[Host]]], Callable[..., nx.Transfer[Host]]]:
    def deco(fn: Callable[..., nx.Transfer[Host]]) -> Callable[..., nx.Transfer[Host]]:
        REGISTRY[name] = fn
        return fn

    return deco


@cuda.jit
def scale_kernel(a: Any, factor: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor


@cuda.jit
def clip_kernel(a: Any, hi: float) -> None:
    i = cuda.grid(1)
    if i < a.size and a[i] > hi:
        a[i] = hi


def blocks(n: int) -> int:
    return (n + 63) // 64


@register("scale")
def scale_plugin(s: nx.Stream[nx.Lent], host: Host, dev: Dev, *, factor: float) -> nx.Transfer[Host]:
    up = s.upload(host, to=dev)
    s.launch(scale_kernel, blocks(dev.size), 64, dev, factor)
    return up


@register("clip")
def clip_plugin(s: nx.Stream[nx.Lent], host: Host, dev: Dev, *, hi: float) -> nx.Transfer[Host]:
    s.launch(clip_kernel, blocks(dev.size), 64, dev, hi)
    return s.download(dev, into=host)


def build(spec: list[tuple[str, dict[str, float]]]) -> list[Plugin]:
    return [functools.partial(REGISTRY[name], **kwargs) for name, kwargs in spec]


def run_chain(chain: list[Plugin], data: np.ndarray[Any, np.dtype[np.float32]]) -> Host:
    s = nx.stream()
    dev = nx.device_array(data.size, np.float32)
    host = nx.pinned_copy(data)
    with s.lend() as ls:
        for plugin in chain:
            host = plugin(ls, host, dev).wait()
    s.close()
    return host


def main() -> None:
    chain = build([("scale", {"factor": 3.0}), ("clip", {"hi": 10.0})])
    data = np.arange(8, dtype=np.float32)
    out = run_chain(chain, data)
    expected = np.minimum(data * 3.0, 10.0)
    assert np.array_equal(out.read(), expected), out.read()
    print("plugin_registry ok", out.read().tolist())


if __name__ == "__main__":
    main()
