"""Small chunks: 256 MiB of float32 through upload -> kernel (dst = 2*src + 1) ->
download at 4 MiB, 1 MiB, 256 KiB and 64 KiB chunks, and the per-call costs that bound
it (a kernel launch; a 1 KiB upload and download).

Streaming variants, all in one run, interleaved (every repetition runs each variant
once, in turn, so host noise hits them alike); medians:

* raw numba, best of 2 and 4 streams (``copy_to_device`` / ``k[g, b, s]`` /
  ``copy_to_host`` per chunk);
* raw cuda.bindings copies + numba launch, 4 streams;
* raw cuda.bindings: the same work captured once on 4 streams (stream capture, fork
  and join events) as a CUDA graph, replayed (capture + instantiate not timed);
* ``nx.Pipeline`` (3 slots);
* more through :data:`VARIANTS` / :func:`register_variant` (the hook for numbaxfer's
  own graph replay).

The copy-engine bound: the H200 has a copy engine each way, so uploads and downloads
of different chunks overlap; the bound is the time of a 256 MiB upload and a 256 MiB
download run at once on two streams (measured here, medians), plus the first chunk's
upload and last chunk's download, which overlap nothing:
``bound = T_both(256 MiB) * (total - chunk) / total + T_up(chunk) + T_down(chunk)``.

    python bench/small_chunks.py [--quick] [--json PATH]
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

import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

import numbaxfer as nx  # noqa: E402

TOTAL = 256 << 20
CHUNKS = (4 << 20, 1 << 20, 256 << 10, 64 << 10)
Row = dict[str, Any]


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i] + 1.0


affine_rw = nx.kernel(reads=["src"], writes=["dst"])(affine)


class Setup:
    """What every variant shares: the host data (raw pinned and numbaxfer pinned), the
    chunk size in elements, and the driver module."""

    def __init__(self) -> None:
        from cuda.bindings import driver

        self.drv = driver
        self.n = TOTAL // 4
        self.h_in = cuda.pinned_array(self.n, np.float32)
        self.h_out = cuda.pinned_array(self.n, np.float32)
        self.h_in[:] = 1.0
        self.x_in = nx.pinned_array(self.n, np.float32)
        with self.x_in.write() as a:
            a[:] = 1.0
        self.x_out = nx.pinned_array(self.n, np.float32)

    def check_raw(self, name: str) -> None:
        if not (self.h_out[:1024] == 3.0).all() or not (self.h_out[-1024:] == 3.0).all():
            raise AssertionError(f"{name}: wrong result")
        self.h_out[:] = 0.0


Factory = Callable[[Setup, int], Callable[[], None] | None]


def _raw_numba(streams: int) -> Factory:
    def make(st: Setup, c: int) -> Callable[[], None]:
        ss = [cuda.stream() for _ in range(streams)]
        ins = [cuda.device_array(c, np.float32) for _ in ss]
        outs = [cuda.device_array(c, np.float32) for _ in ss]
        grid = (c + 255) // 256
        chunks = st.n // c

        def run() -> None:
            for i in range(chunks):
                k = i % streams
                part = slice(i * c, (i + 1) * c)
                ins[k].copy_to_device(st.h_in[part], stream=ss[k])
                affine[grid, 256, ss[k]](ins[k], outs[k])
                outs[k].copy_to_host(st.h_out[part], stream=ss[k])
            for s in ss:
                s.synchronize()

        return run

    return make


def _bindings_work(st: Setup, c: int, streams: int = 4) -> Any:
    drv = st.drv
    ss = [cuda.stream() for _ in range(streams)]
    ins = [cuda.device_array(c, np.float32) for _ in ss]
    outs = [cuda.device_array(c, np.float32) for _ in ss]
    iptr = [a.__cuda_array_interface__["data"][0] for a in ins]
    optr = [a.__cuda_array_interface__["data"][0] for a in outs]
    hin, hout = st.h_in.ctypes.data, st.h_out.ctypes.data
    grid, nbytes, chunks = (c + 255) // 256, c * 4, st.n // c

    def enqueue() -> None:
        for i in range(chunks):
            k = i % streams
            h = ss[k].handle
            drv.cuMemcpyHtoDAsync(iptr[k], hin + i * nbytes, nbytes, h)
            affine[grid, 256, ss[k]](ins[k], outs[k])
            drv.cuMemcpyDtoHAsync(hout + i * nbytes, optr[k], nbytes, h)

    return ss, enqueue, (ins, outs)


def bindings_calls(st: Setup, c: int) -> Callable[[], None]:
    ss, enqueue, keep = _bindings_work(st, c)
    KEEP.append(keep)

    def run() -> None:
        enqueue()
        for s in ss:
            s.synchronize()

    return run


def bindings_graph(st: Setup, c: int) -> Callable[[], None]:
    """Stream capture on 4 streams (fork: the others wait for an event of the first;
    join: the first waits for an event of each), instantiated once; replays time."""
    drv = st.drv
    ss, enqueue, keep = _bindings_work(st, c)
    KEEP.append((keep, ss))
    head = ss[0].handle
    events = [drv.cuEventCreate(drv.CUevent_flags.CU_EVENT_DISABLE_TIMING)[1] for _ in ss]
    t0 = time.perf_counter()
    (err,) = drv.cuStreamBeginCapture(head, drv.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED)
    assert not err, err
    drv.cuEventRecord(events[0], head)
    for s in ss[1:]:
        drv.cuStreamWaitEvent(s.handle, events[0], 0)
    enqueue()
    for s, ev in zip(ss[1:], events[1:], strict=True):
        drv.cuEventRecord(ev, s.handle)
        drv.cuStreamWaitEvent(head, ev, 0)
    err, graph = drv.cuStreamEndCapture(head)
    assert not err, err
    err, exe = drv.cuGraphInstantiate(graph, 0)
    assert not err, err
    CAPTURE_MS[c] = (time.perf_counter() - t0) * 1e3
    KEEP.append((graph, exe, events))

    def run() -> None:
        drv.cuGraphLaunch(exe, head)
        drv.cuStreamSynchronize(head)

    return run


def nx_pipeline(slots: int) -> Factory:
    def make(st: Setup, c: int) -> Callable[[], None]:
        pipe = nx.Pipeline(c, np.float32, slots=slots)
        grid = (c + 255) // 256

        def step(s: Any, din: Any, dout: Any) -> None:
            s.launch(affine, grid, 256, din, dout)

        def run() -> None:
            st.x_in, st.x_out = pipe.map(st.x_in, into=st.x_out, step=step).wait()

        return run

    return make


#: name -> factory(setup, chunk elements) -> a runner of one whole 256 MiB pass (or
#: None to skip). Add variants with register_variant (the graph helper's nx variant).
VARIANTS: dict[str, Factory] = {
    "raw numba, 2 streams": _raw_numba(2),
    "raw numba, 4 streams": _raw_numba(4),
    "raw bindings copies + numba launch, 4 streams": bindings_calls,
    "raw bindings graph replay, 4 streams": bindings_graph,
    "nx.Pipeline, 3 slots": nx_pipeline(3),
}
RAW_CHECKED = {name for name in VARIANTS if name.startswith("raw")}
CAPTURE_MS: dict[int, float] = {}
KEEP: list[Any] = []  # device buffers and graphs the runners use, alive to the end


def register_variant(name: str, factory: Factory, *, raw_output: bool = False) -> None:
    """Add a streaming variant (``raw_output``: it writes ``setup.h_out``, checked)."""
    VARIANTS[name] = factory
    if raw_output:
        RAW_CHECKED.add(name)


def _ms(fn: Callable[[], None]) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


def copy_engine_bound(st: Setup, c: int, repeats: int) -> tuple[float, str]:
    d1 = cuda.device_array(st.n, np.float32)
    d2 = cuda.device_array(st.n, np.float32)
    s0, s1 = cuda.stream(), cuda.stream()

    def both() -> None:
        d1.copy_to_device(st.h_in, stream=s0)
        d2.copy_to_host(st.h_out, stream=s1)
        s0.synchronize()
        s1.synchronize()

    def up() -> None:
        d1[:c].copy_to_device(st.h_in[:c], stream=s0)
        s0.synchronize()

    def down() -> None:
        d1[:c].copy_to_host(st.h_out[:c], stream=s0)
        s0.synchronize()

    def up_all() -> None:
        d1.copy_to_device(st.h_in, stream=s0)
        s0.synchronize()

    def down_all() -> None:
        d1.copy_to_host(st.h_out, stream=s0)
        s0.synchronize()

    fns = {"both": both, "up": up, "down": down, "up_all": up_all, "down_all": down_all}
    samples: dict[str, list[float]] = {k: [] for k in fns}
    for f in fns.values():
        f()
    for _ in range(repeats):
        for k, f in fns.items():
            samples[k].append(_ms(f))
    m = {k: statistics.median(v) for k, v in samples.items()}
    bound = m["both"] * (st.n - c) / st.n + m["up"] + m["down"]
    gbs = TOTAL / 1e6
    note = (
        f"T_both(256 MiB) {m['both']:.2f} ms + T_up(chunk) {m['up']:.3f} + T_down(chunk) "
        f"{m['down']:.3f}; peak H2D {gbs / m['up_all']:.1f} GB/s, D2H "
        f"{gbs / m['down_all']:.1f} GB/s, both at once {2 * gbs / m['both']:.1f} GB/s"
    )
    return bound, note


def bench_streaming(quick: bool) -> list[Row]:
    repeats = 3 if quick else 7
    st = Setup()
    rows: list[Row] = []
    for c_bytes in CHUNKS:
        c = c_bytes // 4
        bound, note = copy_engine_bound(st, c, repeats)
        runners = {}
        for name, factory in VARIANTS.items():
            run = factory(st, c)
            if run is not None:
                run()  # warm up: compile, allocate, first touch
                if name in RAW_CHECKED:
                    st.check_raw(name)
                runners[name] = run
        samples: dict[str, list[float]] = {name: [] for name in runners}
        for _ in range(repeats):  # interleaved: each variant once per round
            for name, run in runners.items():
                samples[name].append(_ms(run))
                if name in RAW_CHECKED:
                    st.check_raw(name)
        if not (st.x_out.read()[-1024:] == 3.0).all():
            raise AssertionError("nx variants: wrong result")
        med = {name: statistics.median(v) for name, v in samples.items()}
        graph = med.get("raw bindings graph replay, 4 streams")
        raw_best = min(med["raw numba, 2 streams"], med["raw numba, 4 streams"])
        label = f"{c_bytes >> 20} MiB" if c_bytes >= 1 << 20 else f"{c_bytes >> 10} KiB"
        rows.append(
            {
                "group": "chunks",
                "chunk": label,
                "name": "copy-engine bound",
                "ms": bound,
                "note": note,
            }
        )
        for name, ms in med.items():
            rows.append(
                {
                    "group": "chunks",
                    "chunk": label,
                    "name": name,
                    "ms": ms,
                    "vs_bound": ms / bound,
                    "vs_graph": ms / graph if graph else None,
                    "vs_raw_numba_best": ms / raw_best,
                    "note": f"capture+instantiate {CAPTURE_MS[c]:.1f} ms"
                    if name.startswith("raw bindings graph")
                    else "",
                }
            )
    return rows


# -- per call ---------------------------------------------------------------------------
def _interleaved(
    variants: dict[str, tuple[Callable[[], object], Callable[[], object]]],
    calls: int,
    rounds: int,
) -> dict[str, float]:
    """Median over ``rounds`` of the mean enqueue time (us) of one call, each round
    running a block of ``calls`` of every variant in turn (ABAB...). Each call is
    timed alone and followed, untimed, by its completion (``after``); the timer's own
    cost is subtracted."""
    clock = time.perf_counter_ns

    def block(enqueue: Callable[[], object], after: Callable[[], object]) -> float:
        total = 0
        for _ in range(calls):
            t0 = clock()
            enqueue()
            total += clock() - t0
            after()
        return total / calls / 1e3

    def nothing() -> None:
        pass

    samples: dict[str, list[float]] = {name: [] for name in variants}
    timer: list[float] = []
    for e, a in variants.values():
        block(e, a)  # warm up
    for _ in range(rounds):
        timer.append(block(nothing, nothing))
        for name, (e, a) in variants.items():
            samples[name].append(block(e, a))
    t = statistics.median(timer)
    return {name: statistics.median(v) - t for name, v in samples.items()}


def bench_per_call(quick: bool) -> list[Row]:
    from cuda.bindings import driver as drv

    from numbaxfer._backend import get_backend

    rounds, calls = (5, 200) if quick else (15, 500)
    n = 256
    s = cuda.stream()
    d_in, d_out = cuda.device_array(n, np.float32), cuda.device_array(n, np.float32)
    xs = nx.stream()
    x_in, x_out = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    backend: Any = get_backend()
    count = {"i": 0}

    def every(k: int, sync: Callable[[], object]) -> Callable[[], None]:
        def after() -> None:  # drain the queue now and then, untimed
            count["i"] += 1
            if count["i"] % k == 0:
                sync()

        return after

    def direct_off() -> None:
        backend._direct_on = False
        xs.launch(affine, 1, n, x_in, x_out)
        backend._direct_on = True

    def sync_both() -> None:
        s.synchronize()
        xs.synchronize()

    launch_sync = every(calls, sync_both)
    launches = _interleaved(
        {
            "raw numba k[1, 256, s](a, b)": (lambda: affine[1, n, s](d_in, d_out), launch_sync),
            "s.launch(k, 1, 256, a, b)": (
                lambda: xs.launch(affine, 1, n, x_in, x_out),
                launch_sync,
            ),
            "nx.kernel k[1, 256, s](a, b)": (lambda: affine_rw[1, n, xs](x_in, x_out), launch_sync),
            "s.launch, direct path off": (direct_off, launch_sync),
        },
        calls,
        rounds,
    )
    raw = launches["raw numba k[1, 256, s](a, b)"]
    rows: list[Row] = [
        {
            "group": "per-call",
            "name": f"launch: {name}",
            "us": us,
            "vs": us / raw,
            "vs_what": "raw numba launch",
        }
        for name, us in launches.items()
    ]

    m = 256  # 1 KiB of float32
    h = cuda.pinned_array(m, np.float32)
    d = cuda.device_array(m, np.float32)
    hp, dp, nb, hs = h.ctypes.data, d.__cuda_array_interface__["data"][0], h.nbytes, s.handle
    _, ev = drv.cuEventCreate(drv.CUevent_flags.CU_EVENT_DISABLE_TIMING)
    xd = nx.device_array(m, np.float32)
    state: dict[str, Any] = {"h": nx.pinned_array(m, np.float32), "t": None}

    def up() -> None:
        state["t"] = xs.upload(state["h"], to=xd)

    def down() -> None:
        state["t"] = xs.download(xd, into=state["h"])

    def complete() -> None:
        state["h"] = state["t"].wait()

    def sync() -> None:
        s.synchronize()

    copies = _interleaved(
        {
            "bindings h2d + event record": (
                lambda: (drv.cuMemcpyHtoDAsync(dp, hp, nb, hs), drv.cuEventRecord(ev, hs)),
                sync,
            ),
            "numbaxfer upload": (up, complete),
            "bindings d2h + event record": (
                lambda: (drv.cuMemcpyDtoHAsync(hp, dp, nb, hs), drv.cuEventRecord(ev, hs)),
                sync,
            ),
            "numbaxfer download": (down, complete),
        },
        calls,
        rounds,
    )
    for way, ours, theirs in (
        ("1 KiB upload", "numbaxfer upload", "bindings h2d + event record"),
        ("1 KiB download", "numbaxfer download", "bindings d2h + event record"),
    ):
        rows.append({"group": "per-call", "name": f"{way}: {theirs}", "us": copies[theirs]})
        rows.append(
            {
                "group": "per-call",
                "name": f"{way}: {ours} (enqueue)",
                "us": copies[ours],
                "vs": copies[ours] / copies[theirs],
                "vs_what": theirs,
            }
        )
    xs.close()
    return rows


def print_rows(rows: list[Row]) -> None:
    for r in rows:
        if r["group"] == "chunks":
            ratios = ""
            if "vs_bound" in r:
                g = f", {r['vs_graph']:.2f}x graph" if r.get("vs_graph") else ""
                ratios = f"{r['vs_bound']:.2f}x bound{g}, {r['vs_raw_numba_best']:.2f}x raw numba"
            print(
                f"[chunks {r['chunk']:>7}] {r['name']:<48} {r['ms']:9.2f} ms  {ratios}  "
                f"{r.get('note', '')}"
            )
        else:
            vs = f"{r['vs']:.2f}x {r['vs_what']}" if "vs" in r else ""
            print(f"[per-call]       {r['name']:<48} {r['us']:9.2f} us  {vs}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", choices=["streaming", "per-call"])
    parser.add_argument("--json", default=str(ROOT / "bench" / "out" / "small_chunks.json"))
    args = parser.parse_args()
    if not cuda.is_available() or nx._backend.get_backend().simulated:
        print("small_chunks: skipped (needs a CUDA GPU)")
        return 0
    rows: list[Row] = []
    if args.only != "streaming":
        rows += bench_per_call(args.quick)
    if args.only != "per-call":
        rows += bench_streaming(args.quick)
    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "device": nx._backend.get_backend().describe(),
        "quick": args.quick,
    }
    print(f"small chunks: {meta['device']}")
    print_rows(rows)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
