"""Streaming pipeline: 1 GiB through upload -> kernel -> download in 64 MiB chunks.

Hand-written raw numba with 1-4 streams (its best is the baseline) against
nx.Pipeline with 2-8 slots, and the copy-engine bound. With one copy engine each way,
the first chunk's upload and the last chunk's download cannot overlap anything; the
rest moves up and down at once, at the rate the link sustains in both directions
together (measured here: a 1 GiB upload and a 1 GiB download run concurrently):

    bound = T_up(chunk) + T_both(total - chunk) + T_down(chunk)

The one-way bound, T_up(total) + T_down(chunk), is printed too: it assumes the link
carries both directions at full one-way speed, which PCIe does not quite do.
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

    # copy-engine bounds from this run's own bandwidth
    d_big = cuda.device_array(n, np.float32)
    d_big2 = cuda.device_array(n, np.float32)
    s0, s1 = cuda.stream(), cuda.stream()

    def h2d_all() -> None:
        d_big.copy_to_device(h_in, stream=s0)
        s0.synchronize()

    def h2d_chunk() -> None:
        d_big[:c].copy_to_device(h_in[:c], stream=s0)
        s0.synchronize()

    def d2h_chunk() -> None:
        d_big[:c].copy_to_host(h_out[:c], stream=s0)
        s0.synchronize()

    def both_ways() -> None:
        d_big.copy_to_device(h_in, stream=s0)
        d_big2.copy_to_host(h_out, stream=s1)
        s0.synchronize()
        s1.synchronize()

    t_up_all, t_up, t_down = (_median_ms(f, repeats) for f in (h2d_all, h2d_chunk, d2h_chunk))
    t_both = _median_ms(both_ways, repeats)
    one_way_bound = t_up_all + t_down
    bound = t_up + t_both * (n - c) / n + t_down

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

    safe_ms = {k: safe(k) for k in (2, 3, 4, 6, 8)}
    assert np.all(dst.read() == 3.0)
    best_safe_k = min(safe_ms, key=lambda k: safe_ms[k])
    rows: list[dict[str, Any]] = [
        {
            "group": "pipeline",
            "name": "copy-engine bound (both ways at once)",
            "ms": bound,
            "note": f"T_up(chunk) {t_up:.2f} + T_both(1 GiB) {t_both:.2f} x {(n - c) / n:.3f}"
            f" + T_down(chunk) {t_down:.2f}",
        },
        {
            "group": "pipeline",
            "name": "one-way bound (ideal full duplex)",
            "ms": one_way_bound,
            "note": f"T_up(1 GiB) {t_up_all:.2f} + T_down(chunk) {t_down:.2f}",
        },
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
