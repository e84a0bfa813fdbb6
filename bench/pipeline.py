"""Streaming pipeline: 1 GiB through upload -> kernel -> download in 64 MiB chunks.

Hand-written raw numba with 1-4 streams (its best is the baseline) against
nx.Pipeline with 2-4 slots, and the copy-engine bound: with one copy engine each way,
the uploads of all chunks run back to back, and the last chunk's download (plus its
kernel) cannot overlap them: bound = total / BW(h2d) + chunk / BW(d2h).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

TOTAL = 1 << 30
CHUNK = 64 << 20


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i] + 1.0


def _median_ms(fn: Any, repeats: int) -> float:
    fn()  # warm up (kernel compile, allocations)
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(samples)


def bench_pipeline(quick: bool) -> list[dict[str, Any]]:
    repeats = 3 if quick else 7
    n, c = TOTAL // 4, CHUNK // 4
    chunks = n // c
    grid, block = (c + 255) // 256, 256
    h_in = cuda.pinned_array(n, np.float32)
    h_out = cuda.pinned_array(n, np.float32)
    h_in[:] = 1.0

    # copy-engine bound from this run's own bandwidth
    d_big = cuda.device_array(n, np.float32)
    s0 = cuda.stream()

    def h2d_all() -> None:
        d_big.copy_to_device(h_in, stream=s0)
        s0.synchronize()

    def d2h_chunk() -> None:
        d_big[:c].copy_to_host(h_out[:c], stream=s0)
        s0.synchronize()

    bound = _median_ms(h2d_all, repeats) + _median_ms(d2h_chunk, repeats)

    def raw(streams: int) -> float:
        ss = [cuda.stream() for _ in range(streams)]
        ins = [cuda.device_array(c, np.float32) for _ in ss]
        outs = [cuda.device_array(c, np.float32) for _ in ss]

        def run() -> None:
            for i in range(chunks):
                k = i % streams
                part = slice(i * c, (i + 1) * c)
                ins[k].copy_to_device(h_in[part], stream=ss[k])
                affine[grid, block, ss[k]](ins[k], outs[k])
                outs[k].copy_to_host(h_out[part], stream=ss[k])
            cuda.synchronize()

        return _median_ms(run, repeats)

    raw_ms = {k: raw(k) for k in (1, 2, 3, 4)}
    assert np.all(h_out[-c:] == 3.0)
    best_raw_k = min(raw_ms, key=lambda k: raw_ms[k])

    src = nx.pinned_array(n, np.float32)
    with src.write() as a:
        a[:] = 1.0
    dst = nx.pinned_array(n, np.float32)

    def safe(slots: int) -> float:
        nonlocal src, dst
        pipe = nx.Pipeline(c, np.float32, slots=slots)

        def step(
            s: nx.Stream[nx.Lent],
            din: nx.DeviceArray[nx.Owned, np.float32],
            dout: nx.DeviceArray[nx.Owned, np.float32],
        ) -> None:
            s.launch(affine, grid, block, din, dout)

        def run() -> None:
            nonlocal src, dst
            src, dst = pipe.map(src, into=dst, step=step).wait()

        ms = _median_ms(run, repeats)
        pipe.close()
        return ms

    safe_ms = {k: safe(k) for k in (2, 3, 4)}
    assert np.all(dst.read() == 3.0)
    best_safe_k = min(safe_ms, key=lambda k: safe_ms[k])
    rows: list[dict[str, Any]] = [
        {"group": "pipeline", "name": "copy-engine bound", "ms": bound, "note": "computed"},
    ]
    for k, ms in raw_ms.items():
        rows.append({"group": "pipeline", "name": f"raw numba, {k} stream(s)", "ms": ms})
    for k, ms in safe_ms.items():
        note = f"{ms / raw_ms[best_raw_k]:.3f}x best raw; {ms / bound:.3f}x bound"
        rows.append(
            {"group": "pipeline", "name": f"nx.Pipeline, {k} slots", "ms": ms, "note": note}
        )
    rows.append(
        {
            "group": "pipeline",
            "name": "summary",
            "ms": safe_ms[best_safe_k],
            "note": f"best safe ({best_safe_k} slots) vs best raw ({best_raw_k} streams, "
            f"{raw_ms[best_raw_k]:.2f} ms): {safe_ms[best_safe_k] / raw_ms[best_raw_k]:.3f}x; "
            f"vs bound {safe_ms[best_safe_k] / bound:.3f}x",
        }
    )
    return rows
