# RUN: raises BorrowError
# XFAIL: miss (line 67): ClipPlugin.inspect(), called through a registry of plugin instances, writes the host frame that Engine.process() has lent to the plugins; methods called through a registry are not followed
# Planted bug: ClipPlugin.inspect() writes the engine's host frame in place while Engine.process() has it lent to the plugins.
"""A plugin registry: inspection plugins register by name with a decorator, and the
engine runs each frame through them while the host frame is lent read-only."""

from __future__ import annotations

from typing import Any, Callable, ClassVar

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def square(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * a[i]


class Plugin:
    registry: ClassVar[dict[str, type[Plugin]]] = {}
    name: ClassVar[str] = "base"

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.findings: list[float] = []

    def inspect(self, frame: View) -> None:
        raise NotImplementedError


def register(name: str) -> Callable[[type[Plugin]], type[Plugin]]:
    def deco(cls: type[Plugin]) -> type[Plugin]:
        cls.name = name
        Plugin.registry[name] = cls
        return cls

    return deco


@register("peak")
class PeakPlugin(Plugin):
    def inspect(self, frame: View) -> None:
        self.findings.append(float(frame.read().max()))


@register("mean")
class MeanPlugin(Plugin):
    def inspect(self, frame: View) -> None:
        self.findings.append(float(frame.read().mean(dtype=np.float64)))


@register("clip")
class ClipPlugin(Plugin):
    limit: ClassVar[float] = 100.0

    def inspect(self, frame: View) -> None:
        over = int((frame.read() > self.limit).sum())
        self.findings.append(float(over))
        if over:
            with self.engine.host.write() as a:  # E: owner-borrowed
                np.minimum(a, self.limit, out=a)


class Engine:
    def __init__(self, n: int, enabled: list[str]) -> None:
        self.stream = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.host: Host = nx.pinned_array(n, np.float32)
        self.plugins = [Plugin.registry[name](self) for name in enabled]
        self.clip_requests = 0

    def process(self, values: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        with self.host.write() as a:
            a[:] = values
        self.host = self.stream.upload(self.host, to=self.dev).wait()
        self.stream.launch(square, 2, 64, self.dev)
        self.host = self.stream.download(self.dev, into=self.host).wait()
        with self.host.lend() as frame:
            for plugin in self.plugins:
                plugin.inspect(frame)
        if self.clip_requests:
            with self.host.write() as a:
                np.minimum(a, ClipPlugin.limit, out=a)
            self.clip_requests = 0

    def close(self) -> None:
        self.host.free()
        self.stream.close()


def main() -> None:
    n = 256
    engine = Engine(n, ["peak", "mean", "clip"])
    try:
        engine.process(np.full(n, 2.0, dtype=np.float32))
        engine.process(np.linspace(0.0, 20.0, n, dtype=np.float32))
        clipped_max = float(engine.host.read().max())
    finally:
        engine.close()
    peak, mean, clip = engine.plugins
    assert peak.findings[0] == 4.0 and peak.findings[1] == 400.0
    assert clip.findings[0] == 0.0 and clip.findings[1] > 0.0
    assert clipped_max == 100.0
    print("findings", [p.findings for p in engine.plugins])


if __name__ == "__main__":
    main()
