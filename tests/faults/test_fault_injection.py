"""Fault injection: every backend call of each representative program fails in turn.

For each program, a counting pass (no fault) lists its backend calls; then, for every
call k, for RuntimeError and KeyboardInterrupt, raised before or after the real call,
on the lazy and the eager emulator, the program runs again on a fresh backend and the
invariants of ``tests/faults/harness.py`` are checked. Test ids read
``<program>-<schedule>-k<k>_<backend call>-<exception>-<before|after>``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from typing import Any, ClassVar

import numpy as np
import pytest

import numbaxfer as nx
from tests.faults.harness import (
    SCHEDULES,
    Env,
    FaultProgram,
    Violations,
    count_calls,
    run_fault_case,
)
from tests.kernels import add_one, affine

SIMULATED = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
N = 32
GRID, BLOCK = 1, 32
F32 = np.float32
AFFINE = nx.kernel(reads=["src"], writes=["dst"])(affine)


def _data(seed: float) -> np.ndarray[Any, np.dtype[np.float32]]:
    values: np.ndarray[Any, np.dtype[np.float32]] = np.arange(N, dtype=F32) + F32(seed)
    return values


def _fill(h: nx.PinnedArray[nx.Owned, Any], values: np.ndarray[Any, Any]) -> None:
    with h.write() as a:
        a[:] = values


def _fresh_out(env: Env, name: str) -> nx.PinnedArray[nx.Owned, np.float32]:
    out: nx.PinnedArray[nx.Owned, np.float32] = env.host(name, nx.pinned_array(N, F32))
    return out


# What a program made before the fault, or (if the fault came first) a fresh one, faults
# off: recover_and_check re-runs the operation either way.
def _s(env: Env, name: str, *, strict: bool = False) -> nx.Stream[nx.Owned]:
    s = env.streams.get(name)
    return s if s is not None else env.stream(name, nx.stream(strict=strict))


def _p(env: Env, name: str) -> nx.PinnedArray[nx.Owned, Any]:
    h = env.pinned.get(name)
    if h is None:
        h = env.host(name, nx.pinned_array(N, F32))
    return h


def _d(env: Env, name: str) -> nx.DeviceArray[nx.Owned, Any]:
    d = env.extra.get(name)
    if d is None:
        d = env.extra[name] = nx.device_array(N, F32)
    result: nx.DeviceArray[nx.Owned, Any] = d
    return result


class Roundtrip:
    """upload, a kernel between, download."""

    name = "roundtrip"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        s = env.stream("s", nx.stream())
        src = env.host("src", nx.pinned_array(N, F32))
        _fill(src, _data(0))
        dev = nx.device_array(N, F32)
        env.extra["dev"] = dev
        out = _fresh_out(env, "out")
        env.waitable("up", s.upload(src, to=dev), ("src",))
        s.launch(add_one, GRID, BLOCK, dev)
        env.waitable("down", s.download(dev, into=out), ("out",))
        env.wait("up")
        env.wait("down")
        env.expect("out", env.pinned["out"].read(), _data(0) + 1, "program")

    def recover_and_check(self, env: Env) -> None:
        s, dev = _s(env, "s"), _d(env, "dev")
        src, out = _p(env, "src"), _p(env, "out")
        _fill(src, _data(10))
        up = s.upload(src, to=dev)
        s.launch(add_one, GRID, BLOCK, dev)
        down = s.download(dev, into=out)
        src, out = up.wait(), down.wait()
        env.rebind("src", src)
        env.rebind("out", out)
        env.expect("src (re-run)", src.read(), _data(10), "unchanged")
        env.expect("out (re-run)", out.read(), _data(10) + 1, "unchanged")


def _probe(env: Env, reader: nx.Stream[nx.Owned], writer: nx.Stream[nx.Owned], a: Any) -> None:
    """Read device array ``a`` on ``reader`` (with no host sync) and on ``writer``, where
    its last writes were enqueued: if numbaxfer's cross-stream bookkeeping lost an event
    wait, the reader sees older data than the writer on the lazy emulator."""
    b = nx.device_array(N, F32)
    p1 = nx.pinned_array(N, F32)
    p2 = nx.pinned_array(N, F32)
    try:
        with a.lend() as la:
            reader.launch(AFFINE, GRID, BLOCK, la, b)
    except nx.CrossStreamError:
        return  # a strict reader that knows it has not waited: correct
    via_reader = reader.download(b, into=p1)
    p1 = via_reader.wait()
    truth = writer.download(a, into=p2)
    p2 = truth.wait()
    env.expect(
        "device array read across streams (probe)", p1.read(), 2 * p2.read() + 1, "unchanged"
    )


class CrossStream:
    """write on s1, read on s2 with an nx.kernel declaring intents."""

    name = "cross_stream"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        s1 = env.stream("s1", nx.stream())
        s2 = env.stream("s2", nx.stream())
        src = env.host("src", nx.pinned_array(N, F32))
        _fill(src, _data(0))
        a, b = nx.device_array(N, F32), nx.device_array(N, F32)
        env.extra.update(a=a, b=b)
        out = _fresh_out(env, "out")
        env.waitable("up", s1.upload(src, to=a), ("src",))
        s1.launch(add_one, GRID, BLOCK, a)
        with a.lend() as la:
            s2.launch(AFFINE, GRID, BLOCK, la, b)
        env.waitable("down", s2.download(b, into=out), ("out",))
        env.wait("up")
        env.wait("down")
        env.expect("out", env.pinned["out"].read(), 2 * (_data(0) + 1) + 1, "program")

    def recover_and_check(self, env: Env) -> None:
        s1, s2, a, b = _s(env, "s1"), _s(env, "s2"), _d(env, "a"), _d(env, "b")
        _probe(env, s2, s1, a)
        src, out = _p(env, "src"), _p(env, "out")
        _fill(src, _data(5))
        up = s1.upload(src, to=a)
        s1.launch(add_one, GRID, BLOCK, a)
        with a.lend() as la:
            s2.launch(AFFINE, GRID, BLOCK, la, b)
        down = s2.download(b, into=out)
        src, out = up.wait(), down.wait()
        env.rebind("src", src)
        env.rebind("out", out)
        env.expect("out (re-run)", out.read(), 2 * (_data(5) + 1) + 1, "unchanged")


class Strict:
    """a strict stream: refused cross-stream launch, then wait_for, launch, download."""

    name = "strict"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        s1 = env.stream("s1", nx.stream())
        s2 = env.stream("s2", nx.stream(strict=True))
        src = env.host("src", nx.pinned_array(N, F32))
        _fill(src, _data(0))
        a = nx.device_array(N, F32)
        env.extra["a"] = a
        out = _fresh_out(env, "out")
        env.waitable("up", s1.upload(src, to=a), ("src",))
        try:
            s2.launch(add_one, GRID, BLOCK, a)
        except nx.CrossStreamError:
            pass
        else:
            env.violations.add("program", "strict s2", "a cross-stream launch was not refused")
        s2.wait_for(s1)
        s2.launch(add_one, GRID, BLOCK, a)
        env.waitable("down", s2.download(a, into=out), ("out",))
        env.wait("up")
        env.wait("down")
        env.expect("out", env.pinned["out"].read(), _data(0) + 1, "program")

    def recover_and_check(self, env: Env) -> None:
        s1, s2, a = _s(env, "s1"), _s(env, "s2", strict=True), _d(env, "a")
        _probe(env, s2, s1, a)
        src, out = _p(env, "src"), _p(env, "out")
        _fill(src, _data(7))
        up = s1.upload(src, to=a)
        s2.wait_for(s1)
        s2.launch(add_one, GRID, BLOCK, a)
        down = s2.download(a, into=out)
        src, out = up.wait(), down.wait()
        env.rebind("src", src)
        env.rebind("out", out)
        env.expect("out (re-run)", out.read(), _data(7) + 1, "unchanged")


CHUNK = 8  # 4 chunks of N


def _step(
    s: nx.Stream[nx.Lent],
    din: nx.DeviceArray[nx.Owned, np.float32],
    dout: nx.DeviceArray[nx.Owned, np.float32],
) -> None:
    s.launch(AFFINE, GRID, BLOCK, din, dout)


class PipelineMap:
    """Pipeline.map over 4 chunks with a step."""

    name = "pipeline"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        pipe: nx.Pipeline[np.float32] = nx.Pipeline(CHUNK, F32, slots=2)
        env.pipelines["pipe"] = pipe
        src = env.host("src", nx.pinned_array(N, F32))
        _fill(src, _data(0))
        dst = _fresh_out(env, "dst")
        env.waitable("run", pipe.map(src, into=dst, step=_step), ("src", "dst"))
        env.wait("run")
        env.expect("dst", env.pinned["dst"].read(), 2 * _data(0) + 1, "program")
        env.expect("src", env.pinned["src"].read(), _data(0), "program")

    def recover_and_check(self, env: Env) -> None:
        pipe = env.pipelines.get("pipe")
        if pipe is None:
            pipe = env.pipelines["pipe"] = nx.Pipeline(CHUNK, F32, slots=2)
        src, dst = _p(env, "src"), _p(env, "dst")
        _fill(src, _data(3))
        src, dst = pipe.map(src, into=dst, step=_step).wait()
        env.rebind("src", src)
        env.rebind("dst", dst)
        env.expect("dst (re-run)", dst.read(), 2 * _data(3) + 1, "unchanged")
        env.expect("src (re-run)", src.read(), _data(3), "unchanged")


class Pool:
    """PinnedPool take/recycle/take (the last take waits on the recycled upload)."""

    name = "pool"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, N, F32)
        env.extra["pool"] = pool
        s = env.stream("s", nx.stream())
        dev = nx.device_array(N, F32)
        env.extra["dev"] = dev
        b1 = pool.take()
        assert b1 is not None
        env.host("b1", b1)
        _fill(b1, _data(0))
        env.waitable("t1", s.upload(b1, to=dev), ("b1",))
        pool.recycle(env.waitables["t1"].obj)
        env.consumed("t1")
        b2 = pool.take()
        assert b2 is not None
        env.host("b2", b2)
        _fill(b2, _data(1))
        b3 = pool.take()  # nothing free: waits on t1's own event
        assert b3 is not None
        env.extra["b3"] = b3
        if not np.shares_memory(b3.read(), env.regions["b1"]):
            env.violations.add("program", "pool", "take() returned a buffer that was not recycled")
        env.exempt.discard("b1")
        env.rebind("b1", b3)
        env.expect("b1 (taken back)", b3.read(), _data(0), "program")

    def recover_and_check(self, env: Env) -> None:
        pool: nx.PinnedPool[np.float32] | None = env.extra.get("pool")
        if pool is None:
            pool = nx.PinnedPool(2, N, F32)
        s, dev = _s(env, "s"), _d(env, "dev")
        for name in ("b1", "b2"):
            if name in env.exempt:
                continue  # still in the pool (recycled)
            h = env.pinned.get(name)
            if h is not None and h in (u for _, u, _ in env.usable()):
                pool.give(h)
        taken: list[nx.PinnedArray[nx.Owned, np.float32]] = []
        for i in range(2):
            try:
                b = pool.take(timeout=0.2)
            except TimeoutError:
                env.violations.add(
                    "nothing-lost", "pool", f"take() #{i + 1} of 2 timed out: a buffer was lost"
                )
                return
            assert b is not None
            taken.append(b)
        if np.shares_memory(taken[0].read(), taken[1].read()):
            env.violations.add("single-owner", "pool", "two take()s returned the same buffer")
        extra = pool.take(block=False)
        if extra is not None:
            env.violations.add("single-owner", "pool", "a third take() of a 2-buffer pool worked")
        a, b = taken
        _fill(a, _data(4))
        up = s.upload(a, to=dev)
        down = s.download(dev, into=b)
        a, b = up.wait(), down.wait()
        env.expect("pool buffer (re-run)", b.read(), _data(4), "unchanged")
        pool.give(a)
        pool.give(b)


class Mapped:
    """mapped array: s.map(m), a kernel on mapping.device, mapping.wait()."""

    name = "mapped"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        s = env.stream("s", nx.stream())
        m = env.host("m", nx.mapped_array(N, F32))
        _fill(m, _data(0))
        mp = env.waitable("mp", s.map(m), ("m",))
        s.launch(add_one, GRID, BLOCK, mp.device)
        env.wait("mp")
        env.expect("m", env.pinned["m"].read(), _data(0) + 1, "program")

    def recover_and_check(self, env: Env) -> None:
        s = _s(env, "s")
        m = env.pinned.get("m")
        if m is None:
            m = env.host("m", nx.mapped_array(N, F32))
        assert isinstance(m, nx.MappedArray)
        _fill(m, _data(2))
        mp = s.map(m)
        s.launch(add_one, GRID, BLOCK, mp.device)
        m = mp.wait()
        env.rebind("m", m)
        env.expect("m (re-run)", m.read(), _data(2) + 1, "unchanged")


class PinnedScope:
    """nx.pinned(a) block with an upload and its wait inside, then a download."""

    name = "pinned_scope"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        s = env.stream("s", nx.stream())
        a = _data(0).copy()
        env.extra["a"] = a
        dev = nx.device_array(N, F32)
        env.extra["dev"] = dev
        with nx.pinned(a) as h:
            env.host("h", h, exempt=True)
            env.waitable("up", s.upload(h, to=dev), ("h",))
            env.wait("up")
        out = _fresh_out(env, "out")
        env.waitable("down", s.download(dev, into=out), ("out",))
        env.wait("down")
        env.expect("out", env.pinned["out"].read(), _data(0), "program")

    def recover_and_check(self, env: Env) -> None:
        s, dev = _s(env, "s"), _d(env, "dev")
        a = env.extra.get("a")
        if a is None:
            a = np.zeros(N, F32)
        a[:] = _data(6)
        with nx.pinned(a) as h:
            h = s.upload(h, to=dev).wait()
        out = _p(env, "out")
        out = s.download(dev, into=out).wait()
        env.rebind("out", out)
        env.expect("out (re-run)", out.read(), _data(6), "unchanged")


class LendOfLend:
    """a lend of a lend, the outer block ended first (by hand); then upload the owner."""

    name = "lend_of_lend"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        s = env.stream("s", nx.stream())
        host = env.host("host", nx.pinned_array(N, F32))
        _fill(host, _data(0))
        dev = nx.device_array(N, F32)
        env.extra["dev"] = dev
        outer = host.lend()
        a = outer.__enter__()
        inner = a.lend()
        b = inner.__enter__()
        outer.__exit__(None, None, None)
        try:
            t = s.upload(host, to=dev)
        except nx.BorrowError:
            pass
        else:
            env.waitable("refused_up", t, ("host",))
            env.wait("refused_up")
            host = env.pinned["host"]
            env.violations.add(
                "program", "host", "moved while a lend of its lend was still live (no BorrowError)"
            )
        env.expect("b (lend of lend)", b.read(), _data(0), "program")
        inner.__exit__(None, None, None)
        out = _fresh_out(env, "out")
        # (the BorrowError above moved nothing: a refused call moves nothing)
        env.waitable("up", s.upload(host, to=dev), ("host",))
        env.waitable("down", s.download(dev, into=out), ("out",))
        env.wait("up")
        env.wait("down")
        env.expect("out", env.pinned["out"].read(), _data(0), "program")

    def recover_and_check(self, env: Env) -> None:
        s, dev = _s(env, "s"), _d(env, "dev")
        host, out = _p(env, "host"), _p(env, "out")
        _fill(host, _data(8))
        with host.lend() as a, a.lend() as b:
            env.expect("b (re-run)", b.read(), _data(8), "unchanged")
        up = s.upload(host, to=dev)
        down = s.download(dev, into=out)
        host, out = up.wait(), down.wait()
        env.rebind("host", host)
        env.rebind("out", out)
        env.expect("out (re-run)", out.read(), _data(8), "unchanged")


class Chain:
    """upload on s, kernel on t, a download on t chained onto the upload (no host wait)."""

    name = "chain"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        s = env.stream("s", nx.stream())
        t = env.stream("t", nx.stream())
        src = env.host("src", nx.pinned_array(N, F32))
        _fill(src, _data(0))
        dev = nx.device_array(N, F32)
        env.extra["dev"] = dev
        up = env.waitable("up", s.upload(src, to=dev), ("src",))
        t.launch(add_one, GRID, BLOCK, dev)
        down = t.download(dev, into=up)
        env.waitables["up"].consumed = True  # the download holds the buffer now
        env.waitable("down", down, ("src",))
        env.wait("down")
        env.expect("src", env.pinned["src"].read(), _data(0) + 1, "program")

    def recover_and_check(self, env: Env) -> None:
        s, t, dev = _s(env, "s"), _s(env, "t"), _d(env, "dev")
        src = _p(env, "src")
        _fill(src, _data(10))
        up = s.upload(src, to=dev)
        t.launch(add_one, GRID, BLOCK, dev)
        src = t.download(dev, into=up).wait()
        env.rebind("src", src)
        env.expect("src (re-run)", src.read(), _data(10) + 1, "unchanged")


class PeerCopy:
    """Across devices: upload and a kernel on device 0, a copy into device 1's array on
    device 0's stream, a download of it on device 1's stream (which must wait for the
    copy, on the device). ``peer`` False: the copy takes the staged route."""

    name = "peer_copy"
    peer = True
    expected: tuple[type[BaseException], ...] = ()

    def _devices(self, env: Env) -> None:
        inner: Any = env.backend.inner  # the emulator under the fault wrapper
        inner._shared.peer = self.peer  # its peer-access switch

    def run(self, env: Env) -> None:
        self._devices(env)
        s0 = env.stream("s0", nx.stream())
        s1 = env.stream("s1", nx.stream(device=1))
        src = env.host("src", nx.pinned_array(N, F32))
        _fill(src, _data(0))
        a, b = nx.device_array(N, F32), nx.device_array(N, F32, device=1)
        env.extra.update(a=a, b=b)
        out = _fresh_out(env, "out")
        env.waitable("up", s0.upload(src, to=a), ("src",))
        s0.launch(add_one, GRID, BLOCK, a)
        t = s0.copy(a, to=b)
        assert t.route == ("peer" if self.peer else "staged")
        env.waitable("down", s1.download(b, into=out), ("out",))
        env.wait("up")
        env.wait("down")
        env.expect("out", env.pinned["out"].read(), _data(0) + 1, "program")

    def recover_and_check(self, env: Env) -> None:
        self._devices(env)
        s0 = _s(env, "s0")
        s1 = env.streams.get("s1") or env.stream("s1", nx.stream(device=1))
        a = _d(env, "a")
        b = env.extra.get("b")
        if b is None:
            b = env.extra["b"] = nx.device_array(N, F32, device=1)
        src, out = _p(env, "src"), _p(env, "out")
        _fill(src, _data(7))
        up = s0.upload(src, to=a)
        s0.launch(add_one, GRID, BLOCK, a)
        s0.copy(a, to=b)
        down = s1.download(b, into=out)
        src, out = up.wait(), down.wait()
        env.rebind("src", src)
        env.rebind("out", out)
        env.expect("out (re-run)", out.read(), _data(7) + 1, "unchanged")


class StagedCopy(PeerCopy):
    name = "staged_copy"
    peer = False


class GraphReplay:
    """Capture upload (s) -> kernel (t) -> download (t), then one replay of the graph."""

    name = "graph"
    expected: tuple[type[BaseException], ...] = ()

    def run(self, env: Env) -> None:
        s = env.stream("s", nx.stream())
        t = env.stream("t", nx.stream())
        src = env.host("src", nx.pinned_array(N, F32))
        out = _fresh_out(env, "out")
        din, dout = _d(env, "din"), _d(env, "dout")
        with nx.capture(s, t) as cap:
            env.waitable("up", s.upload(src, to=din), ("src",))
            t.launch(AFFINE, GRID, BLOCK, din, dout)
            env.waitable("down", t.download(dout, into=out), ("out",))
        env.extra["graph"] = cap.graph
        env.wait("up")
        env.wait("down")
        src, out = env.pinned["src"], env.pinned["out"]  # what the waits gave back
        _fill(src, _data(0))
        env.waitable("run", cap.graph.replay(src, out), ("src", "out"))
        src, out = env.wait("run")
        env.expect("out", out.read(), 2 * _data(0) + 1, "program")

    def recover_and_check(self, env: Env) -> None:
        s, t = _s(env, "s"), _s(env, "t")
        din, dout = _d(env, "din"), _d(env, "dout")
        src, out = _p(env, "src"), _p(env, "out")
        graph = env.extra.get("graph")
        if graph is None:  # the capture failed: capture again, faults off
            with nx.capture(s, t) as cap:
                up = s.upload(src, to=din)
                t.launch(AFFINE, GRID, BLOCK, din, dout)
                down = t.download(dout, into=out)
            graph = env.extra["graph"] = cap.graph
            src, out = up.wait(), down.wait()
        _fill(src, _data(7))
        src, out = graph.replay(src, out).wait()
        env.rebind("src", src)
        env.rebind("out", out)
        env.expect("out (re-run)", out.read(), 2 * _data(7) + 1, "unchanged")
        graph.close()


PROGRAMS: dict[str, Callable[[], FaultProgram]] = {
    p.name: p
    for p in (
        Roundtrip,
        CrossStream,
        Strict,
        PipelineMap,
        Pool,
        Mapped,
        PinnedScope,
        LendOfLend,
        Chain,
        PeerCopy,
        StagedCopy,
        GraphReplay,
    )
}
EXCEPTIONS: dict[str, type[BaseException]] = {
    "RuntimeError": RuntimeError,
    "KeyboardInterrupt": KeyboardInterrupt,
}
WHENS: tuple[str, ...] = ("before", "after")


@cache
def baseline(program: str, schedule: str) -> tuple[tuple[str, ...], Violations]:
    calls, violations = count_calls(PROGRAMS[program], schedule)
    return tuple(calls), violations


def calls_of(program: str, schedule: str) -> tuple[str, ...]:
    return baseline(program, schedule)[0]


class _Ids:
    cases: ClassVar[list[Any]] = []


def _cases() -> list[Any]:
    if not SIMULATED:  # counting the calls runs the programs on the emulator
        n = 5
        reason = (
            "the fault harnesses run on the emulator: `make test` runs them in its simulator pass"
        )
        return [pytest.param(*([None] * n), id="on-a-gpu", marks=pytest.mark.skip(reason=reason))]
    if _Ids.cases:
        return _Ids.cases
    for program in PROGRAMS:
        for schedule in SCHEDULES:
            for k, call in enumerate(calls_of(program, schedule)):
                for exc in EXCEPTIONS:
                    for when in WHENS:
                        _Ids.cases.append(
                            pytest.param(
                                program,
                                schedule,
                                k,
                                exc,
                                when,
                                id=f"{program}-{schedule}-k{k:02d}_{call}-{exc}-{when}",
                            )
                        )
    return _Ids.cases


@pytest.mark.parametrize("program", list(PROGRAMS))
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_program_without_faults(program: str, schedule: str) -> None:
    """The counting pass: every program passes every invariant with no fault."""
    calls, violations = baseline(program, schedule)
    assert calls
    if violations:
        pytest.fail(violations.report(f"{program} on the {schedule} emulator, no fault:"), False)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function.__name__ == "test_fault":
        metafunc.parametrize(("program", "schedule", "k", "exc", "when"), _cases())


def test_fault(program: str, schedule: str, k: int, exc: str, when: str) -> None:
    """One injected fault; every invariant of tests/faults/harness.py afterwards."""
    assert when in ("before", "after")
    violations, backend = run_fault_case(
        PROGRAMS[program](),
        schedule,
        k,
        EXCEPTIONS[exc],
        "before" if when == "before" else "after",
    )
    if violations:
        pytest.fail(
            violations.report(
                f"{program} on the {schedule} emulator, {exc} {when} backend call {k} "
                f"({backend.calls[k] if k < len(backend.calls) else '?'}):"
            ),
            pytrace=False,
        )
