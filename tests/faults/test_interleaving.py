"""Interleaving: a second thread's call lands at every backend call of a first thread's
operation.

For each (operation, action) pair, a counting pass lists the operation's backend calls;
then for every call k the operation runs again on a fresh lazy (and eager) emulator
wrapped in ``InterleavingBackend``: at call k a second thread starts the action, and
the first goes on when the action has finished or after a short bounded join (once
numbaxfer serializes its entry points with one process-wide lock, the action blocks
until the operation is over). Both outcomes must be one of the allowed ones of the
issue-10 decisions; never an AttributeError, never work enqueued on a closed stream,
never two owners. Test ids read ``<operation>_vs_<action>-<schedule>-k<k>_<call>``.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from functools import cache
from typing import Any, ClassVar

import numpy as np
import pytest

import numbaxfer as nx
from tests.faults.harness import (
    SCHEDULES,
    InterleavingBackend,
    Outcome,
    Violations,
    diff,
    installed,
    make_inner,
)
from tests.faults.test_fault_injection import BLOCK, CHUNK, F32, GRID, N, _data, _fill, _step
from tests.kernels import add_one

#: How long the first thread waits, after its operation, for the second to finish.
SIMULATED = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
FINAL_JOIN_S = 5.0


def _usable(h: Any) -> bool:
    try:
        h.read()
    except nx.OwnershipError:
        return False
    return True


def _describe(op: str, r1: Outcome, action: str, r2: Outcome) -> str:
    return f"{op} {r1}; {action} {r2}"


class Scenario:
    """One (operation, action) pair. ``setup`` runs first (uncounted), ``op`` on the
    first thread, ``action`` on the second; ``check`` judges both outcomes and then
    completes and closes everything (faults are never on here)."""

    name: ClassVar[str]
    op_name: ClassVar[str]
    action_name: ClassVar[str]

    def __init__(self) -> None:
        self.v = Violations()
        self.streams: list[nx.Stream[nx.Owned]] = []

    def stream(self) -> nx.Stream[nx.Owned]:
        s = nx.stream()
        self.streams.append(s)
        return s

    def setup(self) -> None: ...

    def op(self) -> Any: ...

    def action(self) -> Any: ...

    def check(self, r1: Outcome, r2: Outcome) -> None: ...

    def bad(self, r1: Outcome, r2: Outcome, why: str) -> None:
        self.v.add(
            "allowed-outcome",
            self.name,
            f"{why}: {_describe(self.op_name, r1, self.action_name, r2)}",
        )

    def complete(self, what: str, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except BaseException as e:
            self.v.add("recoverable", what, f"raised {type(e).__name__}: {str(e)[:200]}")
            return None

    def close_all(self) -> None:
        for s in self.streams:
            if not s.closed:
                self.complete(f"{s.label}.close()", s.close)


def _ownership_only(sc: Scenario, r1: Outcome, r2: Outcome) -> None:
    """Any error must be an nx.OwnershipError (never AttributeError, RuntimeError...)."""
    for who, r in ((sc.op_name, r1), (sc.action_name, r2)):
        if r.error is not None and not isinstance(r.error, nx.OwnershipError):
            sc.v.add("allowed-outcome", sc.name, f"{who} {r} (only ownership errors are allowed)")


class UploadClose(Scenario):
    name, op_name, action_name = "upload_vs_close", "upload", "close"

    def setup(self) -> None:
        self.s = self.stream()
        self.src = nx.pinned_array(N, F32)
        _fill(self.src, _data(0))
        self.dev = nx.device_array(N, F32)

    def op(self) -> Any:
        return self.s.upload(self.src, to=self.dev)

    def action(self) -> Any:
        self.s.close()

    def check(self, r1: Outcome, r2: Outcome) -> None:
        _ownership_only(self, r1, r2)
        if r1.raised(nx.StreamClosedError) and r2.ok:
            if not _usable(self.src):
                self.bad(r1, r2, "close won but the source is not usable")
        elif r1.ok and r2.raised(nx.StreamClosedError):
            pass
        else:
            self.bad(r1, r2, f"neither 'close wins' nor '{self.op_name} wins'")
        if r1.ok:
            self.src = self.complete("upload.wait()", r1.value.wait)


class DownloadClose(UploadClose):
    name, op_name, action_name = "download_vs_close", "download", "close"

    def op(self) -> Any:
        return self.s.download(self.dev, into=self.src)


class UploadFree(Scenario):
    name, op_name, action_name = "upload_vs_free_dst", "upload", "dst.free()"

    def setup(self) -> None:
        self.s = self.stream()
        self.src = nx.pinned_array(N, F32)
        _fill(self.src, _data(0))
        self.dev = nx.device_array(N, F32)

    def op(self) -> Any:
        return self.s.upload(self.src, to=self.dev)

    def action(self) -> Any:
        self.dev.free()

    def check(self, r1: Outcome, r2: Outcome) -> None:
        _ownership_only(self, r1, r2)
        if r1.raised(nx.UseAfterTransferError) and r2.ok:
            if not _usable(self.src):
                self.bad(r1, r2, "free won but the source is not usable")
        elif not (r1.ok and r2.ok):
            self.bad(r1, r2, "neither 'free wins' nor 'upload wins, free deferred'")
        if r1.ok:
            self.complete("upload.wait() (the copy into the freed array)", r1.value.wait)
        self.complete(f"{self.s.label}.synchronize()", self.s.synchronize)


class LaunchFree(Scenario):
    name, op_name, action_name = "launch_vs_free_arg", "launch", "arg.free()"

    def setup(self) -> None:
        self.s = self.stream()
        self.dev = nx.device_array(N, F32)

    def op(self) -> Any:
        self.s.launch(add_one, GRID, BLOCK, self.dev)

    def action(self) -> Any:
        self.dev.free()

    def check(self, r1: Outcome, r2: Outcome) -> None:
        _ownership_only(self, r1, r2)
        ok = (r1.raised(nx.UseAfterTransferError) and r2.ok) or (r1.ok and r2.ok)
        if not ok:
            self.bad(r1, r2, "neither 'free wins' nor 'launch wins, free deferred'")
        self.complete(
            f"{self.s.label}.synchronize() (the kernel on the freed array)", self.s.synchronize
        )


class UploadUpload(Scenario):
    name, op_name, action_name = "upload_vs_upload_same_src", "s1.upload(src)", "s2.upload(src)"

    def setup(self) -> None:
        self.s1, self.s2 = self.stream(), self.stream()
        self.src = nx.pinned_array(N, F32)
        _fill(self.src, _data(0))
        self.d1, self.d2 = nx.device_array(N, F32), nx.device_array(N, F32)

    def op(self) -> Any:
        return self.s1.upload(self.src, to=self.d1)

    def action(self) -> Any:
        return self.s2.upload(self.src, to=self.d2)

    def check(self, r1: Outcome, r2: Outcome) -> None:
        _ownership_only(self, r1, r2)
        one = (r1.ok and r2.raised(nx.UseAfterTransferError)) or (
            r2.ok and r1.raised(nx.UseAfterTransferError)
        )
        if not one:
            self.bad(r1, r2, "not exactly one upload of the one source")
        backs = [self.complete("upload.wait()", r.value.wait) for r in (r1, r2) if r.ok]
        backs = [b for b in backs if b is not None]
        if len(backs) > 1 and np.shares_memory(backs[0].read(), backs[1].read()):
            self.v.add("single-owner", self.src.label, "two transfers gave the same memory back")
        if backs:
            got = backs[0].read()
            if not np.array_equal(got, _data(0)):
                self.v.add("data", self.src.label, f"changed: {diff(got, _data(0))}")


class WaitWait(Scenario):
    name, op_name, action_name = "wait_vs_wait_same_transfer", "t.wait()", "t.wait()"

    def setup(self) -> None:
        self.s = self.stream()
        self.src = nx.pinned_array(N, F32)
        _fill(self.src, _data(0))
        self.dev = nx.device_array(N, F32)
        self.t = self.s.upload(self.src, to=self.dev)

    def op(self) -> Any:
        return self.t.wait()

    def action(self) -> Any:
        return self.t.wait()

    def check(self, r1: Outcome, r2: Outcome) -> None:
        _ownership_only(self, r1, r2)
        one = (r1.ok and r2.raised(nx.UseAfterTransferError)) or (
            r2.ok and r1.raised(nx.UseAfterTransferError)
        )
        if r1.ok and r2.ok:
            self.v.add("single-owner", self.t.label, "both wait()s returned the array (two owners)")
        elif not one:
            self.bad(r1, r2, "not exactly one wait() returning the array")
        if not (r1.ok or r2.ok):
            self.complete("a third t.wait()", self.t.wait)


class PipelineMapMap(Scenario):
    name, op_name, action_name = "map_vs_map_same_pipeline", "pipe.map(a)", "pipe.map(b)"

    def setup(self) -> None:
        self.pipe: nx.Pipeline[np.float32] = nx.Pipeline(CHUNK, F32, slots=2)
        self.srcs = [nx.pinned_array(N, F32), nx.pinned_array(N, F32)]
        for i, h in enumerate(self.srcs):
            _fill(h, _data(100 * i))
        self.dsts = [nx.pinned_array(N, F32), nx.pinned_array(N, F32)]

    def _map(self, i: int) -> Any:
        return self.pipe.map(self.srcs[i], into=self.dsts[i], step=_step)

    def op(self) -> Any:
        return self._map(0)

    def action(self) -> Any:
        return self._map(1)

    def check(self, r1: Outcome, r2: Outcome) -> None:
        _ownership_only(self, r1, r2)
        if not (r1.ok and r2.ok):
            self.bad(r1, r2, "both maps must succeed")
        for i, r in enumerate((r1, r2)):
            if not r.ok:
                continue
            back = self.complete(f"run {i}.wait()", r.value.wait)
            if back is None:
                continue
            _src, dst = back
            want = 2 * _data(100 * i) + 1
            if not np.array_equal(dst.read(), want):
                who = f"map {i} ({'first' if i == 0 else 'second'} thread)"
                self.v.add("data", who, f"wrong result: {diff(dst.read(), want)}")
        self.complete("pipe.close()", self.pipe.close)


class MapClose(Scenario):
    name, op_name, action_name = "map_vs_close", "s.map(m) + launch on mapping.device", "close"

    def setup(self) -> None:
        self.s = self.stream()
        self.m = nx.mapped_array(N, F32)
        _fill(self.m, _data(0))
        self.mp: nx.Mapping[np.float32] | None = None

    def op(self) -> Any:
        self.mp = self.s.map(self.m)
        self.s.launch(add_one, GRID, BLOCK, self.mp.device)

    def action(self) -> Any:
        self.s.close()

    def check(self, r1: Outcome, r2: Outcome) -> None:
        _ownership_only(self, r1, r2)
        if not (r1.ok or r1.raised(nx.StreamClosedError)):
            self.bad(r1, r2, "the map/launch may only fail with StreamClosedError")
        if not (r2.ok or r2.raised(nx.StreamClosedError)):
            self.bad(r1, r2, "close may only fail with StreamClosedError")
        if r1.ok and r2.ok:
            pass  # close after the launch: queued work still runs; the mapping waits on it
        if self.mp is not None:
            m = self.complete("mapping.wait()", self.mp.wait)
            if m is not None and r1.ok:
                got = m.read()
                if not np.array_equal(got, _data(0) + 1):
                    self.v.add("data", "mapped array", diff(got, _data(0) + 1))
        elif not _usable(self.m):
            self.bad(r1, r2, "map refused but the mapped array is not usable")


SCENARIOS: dict[str, type[Scenario]] = {
    c.name: c
    for c in (
        UploadClose,
        DownloadClose,
        UploadFree,
        LaunchFree,
        UploadUpload,
        WaitWait,
        PipelineMapMap,
        MapClose,
    )
}


def run_interleaving(name: str, schedule: str, at: int) -> tuple[Violations, list[str]]:
    """Run scenario ``name`` with the action started at call ``at`` of the operation
    (``at < 0``: no action, the counting pass). Returns violations and the op's calls."""
    backend = InterleavingBackend(make_inner(schedule))
    sc = SCENARIOS[name]()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        with installed(backend):
            sc.setup()
            r1, r2 = Outcome(), Outcome()
            backend.at = at
            backend.action = lambda: r2.capture(sc.action)
            backend.arm()
            r1.capture(sc.op)
            backend.disarm()
            calls = list(backend.calls)
            thread = backend.thread
            if thread is not None:
                thread.join(FINAL_JOIN_S)
                if thread.is_alive():
                    sc.v.add("deadlock", name, f"the action did not finish in {FINAL_JOIN_S} s")
                    return sc.v, calls
            elif at >= 0:
                sc.v.add("harness", name, f"call {at} never came")
            if at < 0:  # the counting pass: the action after the operation
                r2.capture(sc.action)
            sc.check(r1, r2)
            sc.close_all()
    for w in caught:
        if issubclass(w.category, ResourceWarning):
            sc.v.add("no-dropped-transfer", name, str(w.message).split(". ")[0])
    return sc.v, calls


@cache
def baseline(name: str, schedule: str) -> tuple[tuple[str, ...], Violations]:
    v, calls = run_interleaving(name, schedule, -1)
    return tuple(calls), v


class _Ids:
    cases: ClassVar[list[Any]] = []


def _cases() -> list[Any]:
    if not SIMULATED:  # counting the calls runs the programs on the emulator
        n = 3
        reason = (
            "the fault harnesses run on the emulator: `make test` runs them in its simulator pass"
        )
        return [pytest.param(*([None] * n), id="on-a-gpu", marks=pytest.mark.skip(reason=reason))]
    if not _Ids.cases:
        for name in SCENARIOS:
            for schedule in SCHEDULES:
                for k, call in enumerate(baseline(name, schedule)[0]):
                    _Ids.cases.append(
                        pytest.param(name, schedule, k, id=f"{name}-{schedule}-k{k:02d}_{call}")
                    )
    return _Ids.cases


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function.__name__ == "test_interleaving":
        metafunc.parametrize(("name", "schedule", "k"), _cases())


@pytest.mark.parametrize("name", list(SCENARIOS))
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_sequential(name: str, schedule: str) -> None:
    """The counting pass: the operation, then the action, one after the other."""
    calls, v = baseline(name, schedule)
    assert calls
    if v:
        pytest.fail(v.report(f"{name} on the {schedule} emulator, sequential:"), False)


def test_interleaving(name: str, schedule: str, k: int) -> None:
    """The action starts on a second thread at the operation's backend call k."""
    v, calls = run_interleaving(name, schedule, k)
    if v:
        call = calls[k] if k < len(calls) else "?"
        pytest.fail(
            v.report(f"{name} on the {schedule} emulator, second thread at call {k} ({call}):"),
            False,
        )
