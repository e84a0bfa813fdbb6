"""Several GPUs on one host: peer-copy bandwidth and the Pipeline on 1 and 2 GPUs.

    python bench/devices.py [--quick] [--json PATH]

* peer copy, GPU 0 -> GPU 1, 256 MiB: numbaxfer's ``s.copy(a, to=b)`` (the route the pair
  has: peer access where cuDeviceCanAccessPeer says yes), numbaxfer's staged route
  (forced: through pinned host memory), and raw numba's ``b.copy_to_device(a, stream=s)``;
* streaming 1 GiB through upload -> kernel -> download in 64 MiB chunks: ``nx.Pipeline``
  on one GPU and on two (``devices=2``), and raw numba doing the same by hand (chunks
  dealt round-robin to per-GPU streams and buffers).

Variants are interleaved (one sample of each per round) and medians reported, with
ratios. On a one-GPU host it runs what one GPU allows (the Pipeline on one GPU against
raw numba) and says why not more; without a GPU it says so and exits.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from numbaxfer._backend import gpu_present  # noqa: E402

TOTAL = 1 << 30
CHUNK = 64 << 20
PEER_BYTES = 256 << 20


def interleaved(variants: dict[str, Callable[[], None]], rounds: int) -> dict[str, float]:
    """Median milliseconds of each variant, one sample of each per round (after a warm-up
    call of each)."""
    for fn in variants.values():
        fn()
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, fn in variants.items():
            t0 = time.perf_counter()
            fn()
            samples[name].append((time.perf_counter() - t0) * 1e3)
    return {name: statistics.median(s) for name, s in samples.items()}


def bench_peer(rounds: int) -> list[dict[str, Any]]:
    import numpy as np
    from numba import cuda

    import numbaxfer as nx

    n = PEER_BYTES // 4
    s0, s1 = nx.stream(), nx.stream(device=1)
    a = nx.device_array(n, np.float32)
    b = nx.device_array(n, np.float32, device=1)
    s0.upload(nx.pinned_copy(np.ones(n, np.float32)), to=a).wait()
    route = s1.copy(a, to=b).route
    backend = s1._backend
    peers: Any = backend._peers  # type: ignore[attr-defined]

    def nx_route() -> None:
        s1.copy(a, to=b).wait()

    def nx_staged() -> None:
        saved = peers.get((1, 0))
        peers[(1, 0)] = False  # force the staged route for this call
        try:
            t = s1.copy(a, to=b)
        finally:
            peers[(1, 0)] = saved
        assert t.route == "staged"
        t.wait()

    ra = cuda.device_array(n, np.float32)
    with cuda.gpus[1]:
        rb = cuda.device_array(n, np.float32)
        rs = cuda.stream()

    def raw() -> None:
        with cuda.gpus[1]:
            rb.copy_to_device(ra, stream=rs)
            rs.synchronize()

    ms = interleaved(
        {f"numbaxfer copy ({route})": nx_route, "numbaxfer copy (staged)": nx_staged, "raw": raw},
        rounds,
    )
    rows = []
    for name, t in ms.items():
        rows.append(
            {
                "group": "peer copy 0 -> 1, 256 MiB",
                "name": name,
                "ms": t,
                "GB/s": PEER_BYTES / t / 1e6,
                "note": f"{t / ms['raw']:.3f}x raw numba",
            }
        )
    return rows


def bench_pipeline(devices: int, rounds: int) -> list[dict[str, Any]]:
    import numpy as np
    from numba import cuda

    import numbaxfer as nx

    n, c = TOTAL // 4, CHUNK // 4
    chunks = n // c
    grid, block = (c + 255) // 256, 256

    @cuda.jit
    def affine(src: Any, dst: Any) -> None:
        i = cuda.grid(1)
        if i < src.size:
            dst[i] = 2.0 * src[i] + 1.0

    h_in = nx.pinned_copy(np.ones(n, np.float32))
    h_out = nx.pinned_array(n, np.float32)

    def portable(count: int) -> Any:  # what a careful raw user does for several GPUs
        buf: Any = cuda.current_context().memhostalloc(count * 4, portable=True)
        return np.ndarray(shape=(count,), dtype=np.float32, buffer=buf)

    raw_in, raw_out = portable(n), portable(n)
    raw_in[:] = 1.0
    variants: dict[str, Callable[[], None]] = {}

    def raw_on(gpus: int, slots: int) -> Callable[[], None]:
        where = [g for _ in range(slots) for g in range(gpus)]
        per: list[tuple[Any, Any, Any, int]] = []
        for g in where:
            with cuda.gpus[g]:
                ins, outs = cuda.device_array(c, np.float32), cuda.device_array(c, np.float32)
                per.append((cuda.stream(), ins, outs, g))

        def run() -> None:
            for i in range(chunks):
                s, din, dout, g = per[i % len(per)]
                part = slice(i * c, (i + 1) * c)
                with cuda.gpus[g]:
                    din.copy_to_device(raw_in[part], stream=s)
                    affine[grid, block, s](din, dout)
                    dout.copy_to_host(raw_out[part], stream=s)
            for s, _, _, g in per:
                with cuda.gpus[g]:
                    s.synchronize()

        return run

    def nx_on(gpus: int, slots: int) -> Callable[[], None]:
        pipe = nx.Pipeline(c, np.float32, slots=slots, devices=gpus)

        def step(s: nx.Stream[nx.Lent], x: Any, y: Any) -> None:
            s.launch(affine, grid, block, x, y)

        def run() -> None:
            nonlocal h_in, h_out
            h_in, h_out = pipe.map(h_in, into=h_out, step=step).wait()

        return run

    for g in range(1, devices + 1):
        variants[f"raw numba, {g} GPU(s), 3 streams each"] = raw_on(g, 3)
        variants[f"nx.Pipeline, {g} GPU(s), slots=3"] = nx_on(g, 3)
    ms = interleaved(variants, rounds)
    assert (h_out.read()[-c:] == 3.0).all() and (raw_out[-c:] == 3.0).all()
    base = ms["raw numba, 1 GPU(s), 3 streams each"]
    return [
        {
            "group": "pipeline 1 GiB, 64 MiB chunks",
            "name": name,
            "ms": t,
            "GB/s": TOTAL / t / 1e6,
            "note": f"{t / base:.3f}x raw on 1 GPU",
        }
        for name, t in ms.items()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not gpu_present():
        print("bench/devices.py: no GPU here (the CUDA driver reports none): nothing to time.")
        return
    from numba import cuda

    import numbaxfer as nx

    rounds = 3 if args.quick else 7
    count = nx.device_count()
    names = ", ".join(f"{g}: {cuda.gpus[g].name}" for g in range(count))
    print(f"{count} GPU(s): {names}")
    rows: list[dict[str, Any]] = []
    if count >= 2:
        rows += bench_peer(rounds)
    else:
        print(
            "one GPU: no peer copy to time, and the Pipeline runs on one GPU only "
            "(the two-GPU figures need a host with two GPUs)."
        )
    rows += bench_pipeline(min(count, 2), rounds)
    for r in rows:
        print(
            f"{r['group']:<32} {r['name']:<44} {r['ms']:9.2f} ms {r['GB/s']:7.1f} GB/s  "
            f"{r.get('note', '')}"
        )
    if args.json:
        args.json.write_text(json.dumps({"devices": count, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
