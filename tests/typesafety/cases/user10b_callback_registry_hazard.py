# RUN: raises BorrowError
# XFAIL: miss (line 84): the callback normalize(), registered with registry.on() and run by registry.fire() inside Sampler.push()'s `with self.sample.lend()` block, opens sampler.sample.write(); a closure stored in another object's container and run through a method is not followed
# Planted bug: a callback registered on "uploaded" normalizes the sampler's buffer in place while the sampler has it lent to the callbacks.
"""Completion-callback registry for a telemetry uploader.

A CallbackRegistry maps event names to lists of callbacks. After a sample buffer's
upload completes, the sampler lends the buffer to every "uploaded" callback (read-only
consumers: stats, checksums). A "normalize" step that rewrites the buffer runs after
the lend, on the owner.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
from numba import cuda

import numbaxfer as nx

Host: TypeAlias = nx.PinnedArray[nx.Owned, np.float32]
LentHost: TypeAlias = nx.PinnedArray[nx.Lent, np.float32]
Callback: TypeAlias = Callable[[str, LentHost], None]


@cuda.jit
def accumulate(acc: Any, x: Any) -> None:
    i = cuda.grid(1)
    if i < x.size:
        acc[i] += x[i]


class CallbackRegistry:
    def __init__(self) -> None:
        self._callbacks: defaultdict[str, list[Callback]] = defaultdict(list)

    def on(self, event: str, cb: Callback) -> None:
        self._callbacks[event].append(cb)

    def fire(self, event: str, tag: str, view: LentHost) -> int:
        for cb in self._callbacks[event]:
            cb(tag, view)
        return len(self._callbacks[event])


class Sampler:
    def __init__(self, registry: CallbackRegistry, width: int) -> None:
        self.registry = registry
        self.width = width
        self.stream = nx.stream()
        self.acc = nx.device_array(width, np.float32)
        self.sample: Host = nx.pinned_array(width, np.float32)
        with self.sample.write() as v:
            v[:] = 0.0
        zero = self.stream.upload(self.sample, to=self.acc)
        self.sample = zero.wait()

    def push(self, tag: str, values: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        with self.sample.write() as v:
            v[:] = values
        dev = nx.device_array(self.width, np.float32)
        self.sample = self.stream.upload(self.sample, to=dev).wait()
        self.stream.launch(accumulate, (self.width + 63) // 64, 64, self.acc, dev)
        with self.sample.lend() as view:
            self.registry.fire("uploaded", tag, view)

    def total(self) -> float:
        out = nx.pinned_array(self.width, np.float32)
        out = self.stream.download(self.acc, into=out).wait()
        return float(out.read().sum(dtype=np.float64))


def main() -> None:
    registry = CallbackRegistry()
    seen: dict[str, float] = {}
    registry.on("uploaded", lambda tag, view: seen.__setitem__(tag, float(view.read().sum())))
    registry.on("uploaded", lambda tag, view: None if view.read().all() else print("zeros in", tag))
    sampler = Sampler(registry, 128)

    def normalize(tag: str, view: LentHost) -> None:
        scale = max(float(np.abs(view.read()).max()), 1.0)
        with sampler.sample.write() as v:  # E: owner-borrowed
            v /= scale

    registry.on("uploaded", normalize)
    for k in range(3):
        sampler.push(f"s{k}", np.full(128, k + 1.0, dtype=np.float32))
    total = sampler.total()
    sampler.stream.close()
    assert seen == {"s0": 128.0, "s1": 256.0, "s2": 384.0}, seen
    assert total == 768.0, total
    print("callback_registry ok", total)


if __name__ == "__main__":
    main()
