# RUN: ok
"""Averaged power spectrum-like accumulation with a closure-based meter.

``make_power_meter`` returns three closures sharing one staging buffer, one device
frame and one device accumulator: ``push`` uploads a frame and enqueues the squared
accumulate, ``drain`` takes the staging buffer back from the last upload, ``result``
downloads the mean. ``drain`` is also registered on an ExitStack, so an error in the
frame loop never leaves an upload unwaited.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, NamedTuple

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def accumulate_power(frame: Any, acc: Any) -> None:
    for i in range(cuda.grid(1), frame.size, cuda.gridsize(1)):
        acc[i] += frame[i] * frame[i]


class Meter(NamedTuple):
    push: Callable[[NDArray[np.float32]], None]
    drain: Callable[[], None]
    result: Callable[[], NDArray[np.float32]]


def make_power_meter(n: int, s: nx.Stream[nx.Lent]) -> Meter:
    d_frame = nx.device_array(n, np.float32)
    d_acc = nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=d_acc)
    spare: Host | None = nx.pinned_array(n, np.float32)
    pending: nx.Transfer[Host] | None = None
    count = 0

    def push(frame: NDArray[np.float32]) -> None:
        nonlocal spare, pending, count
        if pending is not None:
            spare = pending.wait()  # the previous upload has read the buffer
        assert spare is not None
        with spare.write() as a:
            a[:] = frame
        pending = s.upload(spare, to=d_frame)
        spare = None
        s.launch(accumulate_power, max(1, n // 256), 64, d_frame, d_acc)
        count += 1

    def drain() -> None:
        nonlocal spare, pending
        if pending is not None:
            spare = pending.wait()
            pending = None

    def result() -> NDArray[np.float32]:
        nonlocal spare
        drain()
        assert spare is not None and count > 0
        spare = s.download(d_acc, into=spare).wait()
        mean: NDArray[np.float32] = spare.read() / np.float32(count)
        return mean

    return Meter(push, drain, result)


def band_power(frames: list[NDArray[np.float32]]) -> NDArray[np.float32]:
    n = frames[0].size
    with contextlib.ExitStack() as stack:
        s = nx.stream()
        stack.callback(s.close)
        meter = make_power_meter(n, s)
        stack.callback(meter.drain)  # error path: never leave the upload pending
        for frame in frames:
            if not np.isfinite(frame).all():
                continue  # dropped frame
            meter.push(frame)
        power = meter.result()
    return power


def main() -> None:
    rng = np.random.default_rng(11)
    n = 256
    t = np.arange(n, dtype=np.float32)
    frames = [
        (np.sin(2 * np.pi * 5 * t / n) + 0.1 * rng.standard_normal(n)).astype(np.float32)
        for _ in range(5)
    ]
    frames[2][7] = np.nan
    power = band_power(frames)
    good = [f for i, f in enumerate(frames) if i != 2]
    expected = np.mean([f.astype(np.float64) ** 2 for f in good], axis=0)
    assert np.allclose(power, expected, rtol=1e-5), "power mismatch"
    print(f"power_closure: right, mean power {float(power.mean()):.4f} over {len(good)} frames")


if __name__ == "__main__":
    main()
