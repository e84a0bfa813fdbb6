# RUN: ok
"""Calibrate several recordings with nx.Pipeline, several runs in flight at once."""
from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]
DevF = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def calibrate(src: Any, dst: Any, gain: float, offset: float) -> None:
    for i in range(cuda.grid(1), dst.size, cuda.gridsize(1)):
        dst[i] = gain * src[i] + offset


def step(gain: float, offset: float, s: nx.Stream[nx.Lent], chunk_in: DevF, chunk_out: DevF) -> None:
    s.launch(calibrate, 1, 64, chunk_in, chunk_out, gain, offset)


def load(sizes: list[int]) -> list[HostF]:
    return [nx.pinned_copy(np.arange(size, dtype=np.float32)) for size in sizes]


def calibrate_all(recordings: list[HostF], gain: float, offset: float) -> list[NDArray[np.float32]]:
    pipe = nx.Pipeline(64, np.float32, slots=2)
    outputs = [nx.pinned_array(r.size, np.float32) for r in recordings]
    runs: list[nx.PipelineRun[np.float32]] = []
    for src, dst in zip(recordings, outputs):
        runs.append(pipe.map(src, into=dst, step=functools.partial(step, gain, offset)))
        if len(runs) == 2:
            break  # the pipeline's slots are busy: finish these before starting more
    results: list[NDArray[np.float32]] = []
    for run in runs:
        src_back, dst_back = run.wait()
        results.append(dst_back.read().copy())
        src_back.free()
        dst_back.free()
    for src, dst in zip(recordings[len(runs):], outputs[len(runs):]):
        src_back, dst_back = pipe.map(src, into=dst, step=functools.partial(step, gain, offset)).wait()
        results.append(dst_back.read().copy())
    pipe.close()
    return results


def main() -> list[NDArray[np.float32]]:
    sizes = [200, 64, 130]
    results = calibrate_all(load(sizes), 2.0, -1.0)
    for size, got in zip(sizes, results):
        assert np.array_equal(got, 2.0 * np.arange(size, dtype=np.float32) - 1.0), size
    return results


if __name__ == "__main__":
    main()
