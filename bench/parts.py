"""Owned parts and staged uploads on the GPU, against raw numba in the same run.

* 1 GiB host-to-device and device-to-host split across 4 streams: numbaxfer parts
  (``nx.split`` of one pinned and one device array, a transfer per part, then
  ``nx.join``) against the whole array in one transfer and against raw numba slices of
  one pinned buffer on 4 streams;
* small constant uploads from pageable memory: ``upload_staged`` against numba's
  ``cuda.to_device(a, stream=s)`` (which stages through the driver) and against the
  numbaxfer port without it (pin a copy, upload, wait).

Variants are interleaved repetition by repetition; medians.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import numbaxfer as nx

Row = dict[str, Any]


def _interleaved(variants: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    for fn in variants.values():
        fn()  # warm up
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(repeats):
        for name, fn in variants.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(t) for name, t in times.items()}


def bench_parts(quick: bool) -> list[Row]:
    from numba import cuda

    nbytes = (256 << 20) if quick else (1 << 30)
    repeats = 5 if quick else 11
    k = 4
    n = nbytes // 4
    rows: list[Row] = []

    # raw numba: slices of one pinned buffer, one stream each
    h = cuda.pinned_array(n, np.float32)
    d = cuda.device_array(n, np.float32)
    raw_streams = [cuda.stream() for _ in range(k)]
    hs = np.array_split(h, k)
    bounds = np.cumsum([0] + [len(x) for x in hs])
    ds = [d[int(a) : int(b)] for a, b in itertools.pairwise(bounds)]

    def raw(direction: str) -> Callable[[], None]:
        def run() -> None:
            for s, hp, dp in zip(raw_streams, hs, ds, strict=True):
                if direction == "h2d":
                    dp.copy_to_device(hp, stream=s)
                else:
                    dp.copy_to_host(hp, stream=s)
            for s in raw_streams:
                s.synchronize()

        return run

    # numbaxfer: whole arrays, and parts on k streams
    streams = [nx.stream() for _ in range(k)]
    box: dict[str, Any] = {
        "host": nx.pinned_array(n, np.float32),
        "dev": nx.device_array(n, np.float32),
    }

    def whole(direction: str) -> Callable[[], None]:
        def run() -> None:
            s = streams[0]
            if direction == "h2d":
                box["host"] = s.upload(box["host"], to=box["dev"]).wait()
            else:
                box["host"] = s.download(box["dev"], into=box["host"]).wait()

        return run

    def parts(direction: str) -> Callable[[], None]:
        def run() -> None:
            hp = nx.split(box["host"], k)
            dp = nx.split(box["dev"], k)
            if direction == "h2d":
                ts = [s.upload(a, to=b) for s, a, b in zip(streams, hp, dp, strict=True)]
            else:
                ts = [s.download(b, into=a) for s, a, b in zip(streams, hp, dp, strict=True)]
            box["host"] = nx.join([t.wait() for t in ts])
            box["dev"] = nx.join(dp)

        return run

    for direction in ("h2d", "d2h"):
        med = _interleaved(
            {
                "raw numba, 4 slices on 4 streams": raw(direction),
                "nx, whole array, 1 transfer": whole(direction),
                "nx, 4 parts on 4 streams": parts(direction),
            },
            repeats,
        )
        base = med["nx, whole array, 1 transfer"]
        for name, t in med.items():
            rows.append(
                {
                    "group": "parts",
                    "name": f"{direction} {nbytes >> 20} MiB: {name}",
                    "gbs": nbytes / t / 1e9,
                    "vs_whole": base / t,
                }
            )
    for s in streams:
        s.close()

    # small constant uploads from pageable memory
    s_raw = cuda.stream()
    s_nx = nx.stream()
    for size in (1 << 10, 64 << 10):
        m = size // 4
        a = np.arange(m, dtype=np.float32)
        dev = nx.device_array(m, np.float32)

        def numba_to_device(a: Any = a) -> None:
            cuda.to_device(a, stream=s_raw)
            s_raw.synchronize()

        def staged(a: Any = a, dev: Any = dev) -> None:
            s_nx.upload_staged(a, to=dev).wait()

        def pin_and_upload(a: Any = a, dev: Any = dev) -> None:
            s_nx.upload(nx.pinned_copy(a), to=dev).wait()

        med = _interleaved(
            {
                "numba cuda.to_device(a, stream=s) + sync": numba_to_device,
                "nx upload_staged(a) + wait": staged,
                "nx pinned_copy(a) + upload + wait": pin_and_upload,
            },
            51 if quick else 201,
        )
        base = med["numba cuda.to_device(a, stream=s) + sync"]
        for name, t in med.items():
            rows.append(
                {
                    "group": "staged",
                    "name": f"{size >> 10} KiB pageable: {name}",
                    "us": t * 1e6,
                    "vs_numba": t / base,
                }
            )
    s_nx.close()
    return rows
