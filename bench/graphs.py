"""CUDA graph replay at small chunks: raw cuda.bindings against numbaxfer's graphs.

256 MiB of float32 through upload -> kernel (``dst = 2*src + 1``) -> download, in
chunks of 1 MiB, 256 KiB and 64 KiB over 4 streams (chunk ``i`` on stream ``i % 4``,
one input and one output device buffer per stream), captured once and replayed:

* ``raw graph``: cuda.bindings stream capture (fork/join events, the copies straight to
  the driver, numba's launch captured), replayed with ``cuGraphLaunch`` + a stream
  synchronize;
* ``nx graph``: the same work captured with ``nx.capture`` (parts of one pinned array
  per direction), replayed with ``graph.replay(src, dst)`` + ``run.wait()``;
* ``nx graph, buffers alternate``: the same, alternating between two buffer pairs, so
  every replay re-points every copy node;
* ``Pipeline``: ``nx.Pipeline(chunk, slots=4)``, call by call, and the same with
  ``graph=True`` (the first map captured, every later one replayed);
* the copy-engine bound: one 256 MiB upload and one 256 MiB download on two streams at
  once.

Variants are interleaved repetition by repetition; medians and ratios, one run.
``python bench/graphs.py [--quick] [--json PATH]`` on a GPU host.
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

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numbaxfer as nx

Row = dict[str, Any]
TOTAL = 256 << 20
STREAMS = 4


def _check(result: Any) -> Any:
    """The value of a cuda.bindings call (``(err,)`` or ``(err, value)``); raise on error."""
    if result[0]:
        raise RuntimeError(f"driver call failed: {result[0]!r}")
    return result[1] if len(result) > 1 else None


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


def _raw_graph(chunk: int, kernel: Any) -> tuple[Callable[[], None], float, Any, Any]:
    from cuda.bindings import driver as drv
    from numba import cuda

    n, ce = TOTAL // 4, chunk // 4
    hin = cuda.pinned_array(n, np.float32)
    hout = cuda.pinned_array(n, np.float32)
    hin[:] = np.arange(n, dtype=np.float32)
    streams = [cuda.stream() for _ in range(STREAMS)]
    handles = [int(s.handle) for s in streams]
    din = [cuda.device_array(ce, np.float32) for _ in range(STREAMS)]
    dout = [cuda.device_array(ce, np.float32) for _ in range(STREAMS)]
    dptr_in = [int(d.__cuda_array_interface__["data"][0]) for d in din]
    dptr_out = [int(d.__cuda_array_interface__["data"][0]) for d in dout]
    kernel[(ce + 255) // 256, 256, streams[0]](din[0], dout[0])  # compiled before capture
    streams[0].synchronize()
    no_timing = drv.CUevent_flags.CU_EVENT_DISABLE_TIMING
    t0 = time.perf_counter()
    origin = handles[0]
    _check(drv.cuStreamBeginCapture(origin, drv.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED))
    fork = _check(drv.cuEventCreate(no_timing))
    _check(drv.cuEventRecord(fork, origin))
    for h in handles[1:]:
        _check(drv.cuStreamWaitEvent(h, fork, 0))
    base_in, base_out = hin.ctypes.data, hout.ctypes.data
    for i in range(n // ce):
        k = i % STREAMS
        h = handles[k]
        _check(drv.cuMemcpyHtoDAsync(dptr_in[k], base_in + i * chunk, chunk, h))
        kernel[(ce + 255) // 256, 256, streams[k]](din[k], dout[k])
        _check(drv.cuMemcpyDtoHAsync(base_out + i * chunk, dptr_out[k], chunk, h))
    joins = []
    for h in handles[1:]:
        ev = _check(drv.cuEventCreate(no_timing))
        joins.append(ev)
        _check(drv.cuEventRecord(ev, h))
        _check(drv.cuStreamWaitEvent(origin, ev, 0))
    graph = _check(drv.cuStreamEndCapture(origin))
    exe = _check(drv.cuGraphInstantiate(graph, 0))
    setup = time.perf_counter() - t0

    def replay() -> None:
        _check(drv.cuGraphLaunch(exe, origin))
        _check(drv.cuStreamSynchronize(origin))

    replay()
    ok = bool(np.array_equal(hout, 2 * hin + 1))
    keep = (streams, din, dout, hin, hout, graph, fork, joins)
    return replay, setup, ok, (exe, keep)


def _nx_graph(
    chunk: int, kernel: Any
) -> tuple[Callable[[], None], Callable[[], None], float, bool, Any]:
    n, ce = TOTAL // 4, chunk // 4
    streams = [nx.stream() for _ in range(STREAMS)]
    din = [nx.device_array(ce, np.float32) for _ in range(STREAMS)]
    dout = [nx.device_array(ce, np.float32) for _ in range(STREAMS)]
    pairs = []
    for _ in range(2):
        a, b = nx.pinned_array(n, np.float32), nx.pinned_array(n, np.float32)
        with a.write() as v:
            v[:] = np.arange(n, dtype=np.float32)
        pairs.append([a, b])
    streams[0].launch(kernel, (ce + 255) // 256, 256, din[0], dout[0])  # compiled before
    streams[0].synchronize()
    t0 = time.perf_counter()
    parts_in = nx.split(pairs[0][0], chunk=ce)
    parts_out = nx.split(pairs[0][1], chunk=ce)
    with nx.capture(*streams) as cap:
        ups, downs = [], []
        for i, (pi, po) in enumerate(zip(parts_in, parts_out, strict=True)):
            k = i % STREAMS
            s = streams[k]
            ups.append(s.upload(pi, to=din[k]))
            s.launch(kernel, (ce + 255) // 256, 256, din[k], dout[k])
            downs.append(s.download(dout[k], into=po))
    graph = cap.graph
    setup = time.perf_counter() - t0
    pairs[0] = [nx.join([u.wait() for u in ups]), nx.join([d.wait() for d in downs])]

    def same() -> None:
        pairs[0][0], pairs[0][1] = graph.replay(pairs[0][0], pairs[0][1]).wait()

    flip = [0]

    def alternate() -> None:
        p = pairs[flip[0]]
        p[0], p[1] = graph.replay(p[0], p[1]).wait()
        flip[0] ^= 1

    same()
    alternate()
    alternate()
    ok = all(bool(np.array_equal(p[1].read(), 2 * p[0].read() + 1)) for p in pairs)
    return same, alternate, setup, ok, (graph, streams, din, dout, pairs)


def _pipelines(chunk: int, kernel: Any) -> tuple[Callable[[], None], Callable[[], None], Any]:
    n, ce = TOTAL // 4, chunk // 4
    grid = (ce + 255) // 256

    def step(s: nx.Stream[nx.Lent], a: Any, b: Any) -> None:
        s.launch(kernel, grid, 256, a, b)

    made = []
    for graph in (False, True):
        pipe: nx.Pipeline[np.float32] = nx.Pipeline(ce, np.float32, slots=STREAMS, graph=graph)
        a, b = nx.pinned_array(n, np.float32), nx.pinned_array(n, np.float32)
        with a.write() as v:
            v[:] = np.arange(n, dtype=np.float32)
        state = [a, b]

        def run(pipe: nx.Pipeline[np.float32] = pipe, state: list[Any] = state) -> None:
            state[0], state[1] = pipe.map(state[0], into=state[1], step=step).wait()

        made.append((run, pipe, state))
    return made[0][0], made[1][0], made


def _bound() -> Callable[[], None]:
    n = TOTAL // 4
    s1, s2 = nx.stream(), nx.stream()
    state = [nx.pinned_array(n, np.float32), nx.pinned_array(n, np.float32)]
    d1, d2 = nx.device_array(n, np.float32), nx.device_array(n, np.float32)

    def run() -> None:
        up = s1.upload(state[0], to=d1)
        dn = s2.download(d2, into=state[1])
        state[0], state[1] = up.wait(), dn.wait()

    return run


def _name(name: object) -> str:
    return name.decode() if isinstance(name, bytes) else str(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    from numba import cuda

    from tests.kernels import affine

    kernel = affine
    repeats = 5 if args.quick else 11
    rows: list[Row] = []
    bound = _bound()
    for chunk in (1 << 20, 256 << 10, 64 << 10):
        raw, raw_setup, raw_ok, raw_keep = _raw_graph(chunk, kernel)
        same, alternate, nx_setup, nx_ok, nx_keep = _nx_graph(chunk, kernel)
        pipe, pipe_graph, pipes = _pipelines(chunk, kernel)
        med = _interleaved(
            {
                "raw": raw,
                "nx": same,
                "nx_alt": alternate,
                "pipe": pipe,
                "pipe_graph": pipe_graph,
                "bound": bound,
            },
            repeats,
        )
        pipes_ok = all(
            bool(np.array_equal(st[1].read(), 2 * st[0].read() + 1)) for _, _, st in pipes
        )
        for _, p, _ in pipes:
            p.close()
        rows.append(
            {
                "chunk_bytes": chunk,
                "raw_graph_ms": med["raw"] * 1e3,
                "nx_graph_ms": med["nx"] * 1e3,
                "nx_graph_alternating_ms": med["nx_alt"] * 1e3,
                "pipeline_ms": med["pipe"] * 1e3,
                "pipeline_graph_ms": med["pipe_graph"] * 1e3,
                "pipeline_graph_over_raw": med["pipe_graph"] / med["raw"],
                "copy_bound_ms": med["bound"] * 1e3,
                "nx_over_raw": med["nx"] / med["raw"],
                "alternating_over_raw": med["nx_alt"] / med["raw"],
                "raw_capture_instantiate_ms": raw_setup * 1e3,
                "nx_capture_instantiate_ms": nx_setup * 1e3,
                "right": raw_ok and nx_ok and pipes_ok,
            }
        )
        nx_keep[0].close()
        from cuda.bindings import driver as drv

        drv.cuGraphExecDestroy(raw_keep[0])
        del raw_keep, nx_keep
    meta = {
        "device": _name(cuda.get_current_device().name),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "total_bytes": TOTAL,
        "streams": STREAMS,
        "repeats": repeats,
        "command": "python bench/graphs.py" + (" --quick" if args.quick else ""),
    }
    if args.json:
        args.json.write_text(json.dumps({**meta, "rows": rows}, indent=2))
    print(
        f"{meta['device']}, {meta['date']}, 256 MiB float32, {STREAMS} streams, "
        f"medians of {repeats}"
    )
    print(
        f"{'chunk':>8} {'raw graph':>10} {'nx graph':>10} {'nx/raw':>7} {'nx alt':>10} "
        f"{'alt/raw':>8} {'Pipeline':>10} {'P graph':>10} {'Pg/raw':>7} {'bound':>8} "
        f"{'cap raw':>9} {'cap nx':>9} ok"
    )
    for r in rows:
        print(
            f"{r['chunk_bytes'] >> 10:>6}Ki {r['raw_graph_ms']:>8.2f}ms {r['nx_graph_ms']:>8.2f}ms "
            f"{r['nx_over_raw']:>6.2f}x {r['nx_graph_alternating_ms']:>8.2f}ms "
            f"{r['alternating_over_raw']:>7.2f}x {r['pipeline_ms']:>8.2f}ms "
            f"{r['pipeline_graph_ms']:>8.2f}ms {r['pipeline_graph_over_raw']:>6.2f}x "
            f"{r['copy_bound_ms']:>6.2f}ms "
            f"{r['raw_capture_instantiate_ms']:>7.0f}ms {r['nx_capture_instantiate_ms']:>7.0f}ms "
            f"{r['right']}"
        )


if __name__ == "__main__":
    main()
