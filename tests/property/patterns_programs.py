"""Random programs over the patterns real numba code uses, checked like programs.py.

``PatternPrograms`` is a second hypothesis state machine beside ``CheckedPrograms``. It
runs each program in three worlds at once (lazy or eager, and two seeded random
schedules of the emulator) and compares every call with the reference model
(patterns_model.py, on top of model.py):

* ``nx.Pipeline``: map (good, failing and bad steps, size mismatches, moved arrays),
  ``run.wait()`` (once or twice), ``run.done()``, ``close()`` (busy, twice);
* ``Stream.map`` / ``Mapping``: ``nx.mapped_array``, ``s.map(m)``, kernels on
  ``mapping.device`` (written, and read by a kernel with declared intents),
  ``mapping.done()`` polled until it answers, ``mapping.wait()`` (once or twice),
  ``mapping.device.free()``, ``racy_peek()``, a dropped mapping; mapped arrays also
  go through uploads, downloads and pipelines;
* ``nx.PinnedPool``: take (blocking, ``block=False``, timeouts on an empty pool),
  give (members, strangers, numpy arrays, twice), recycle (unfinished transfers of
  its buffers, completed ones, strangers, None), drain;
* ``nx.pinned(a)`` scopes: the handle uploads, downloads, is written and read like any
  pinned array; transfers waited inside, dropped, or left running at block exit
  (UnfinishedTransferError); pinning the same memory again while the block is open;
* lends of lends (host arrays and streams), ended in any order, and the root owner
  misused while any lend in the chain lives;
* thread pairs: two threads run two operations on shared handles, and the outcome
  must be one of the serial orders the model allows (close vs upload, free vs upload,
  write vs upload, upload vs upload, two pipeline maps, take vs take, give vs take).

The property, as for ``CheckedPrograms``: a call the model accepts succeeds in every
world and every host array the program may read holds the model's contents after every
step (numpy arrays pinned in place, too, once their block has ended); a call that breaks
a rule raises the model's error (exact type) and changes nothing; at the end everything
is completed, and every host and device array matches.

The model states the behaviour decided for issue 10 (notes/issue10-decisions.md);
``NUMBAXFER_PATTERNS_SKIP=tag,tag`` leaves out the parts tagged in ``TAGS`` (to look
for further counterexamples on code that fails an earlier one).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._backend._emulator import EmulatorBackend, Schedule

from . import model as m
from . import patterns_model as pm
from .model import ErrorType, Handle, Xfer
from .patterns_model import HostBuf
from .programs import BLOCK, CI, SEEDS, THOROUGH, CheckedDriver, N, Violation, grid_for

R = TypeVar("R")

#: Parts of the model that can be left out with NUMBAXFER_PATTERNS_SKIP (comma separated).
TAGS = {
    "lend2": "lends of lends",
    "step_error": "Pipeline.map whose step raises",
    "bad_step": "Pipeline.map with step=None",
    "mapped_copy": "mapped arrays through upload/download/pipelines",
    "map_free": "mapping.device.free()",
    "map_drop": "a Mapping dropped without wait()",
    "map_done": "mapping.done() polled until it answers",
    "scope_drop": "a transfer of an nx.pinned() handle dropped",
    "pin_again": "nx.pinned() on memory an open block pins",
    "give_numpy": "pool.give(numpy array)",
    "give_message": "the message after pool.give(b)",
    "read_only": "read() views and racy_peek() made writable",
    "threads": "all thread pairs",
    **{
        f"t_{k}": f"thread pair {k}"
        for k in ("close", "free", "write", "up2", "map2", "take2", "give")
    },
}
SKIP = {t for t in os.environ.get("NUMBAXFER_PATTERNS_SKIP", "").split(",") if t}
assert set(TAGS) >= SKIP, f"unknown tags in NUMBAXFER_PATTERNS_SKIP: {SKIP - set(TAGS)}"

MAX_HOST, MAX_MADE, MAX_PIPES, MAX_POOLS, MAX_SCOPES = 5, 10, 2, 2, 2
INDEX = st.integers(0, 15)
WHO = st.integers(0, 6)  # 0: any handle ever made (dead ones too); else the current ones
RARELY = st.integers(0, 2)
JOIN_TIMEOUT = 20.0
PAIR_REPEATS = 2  # each pair, in each world


class StepFailed(Exception):
    """Raised by a pipeline step on purpose."""


@cuda.jit
def add_const(a: Any, c: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += c


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = 2.0 * src[i] + 1.0


@cuda.jit
def mix(dst: Any, src: Any) -> None:
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = dst[i] + 2.0 * src[i] + 1.0


mix_declared = nx.kernel(reads=["src"], writes=["dst"])(mix)


def make_step(chunk: int, fail_at: int | None = None) -> Callable[[Any, Any, Any], None]:
    """The pipeline step: ``out = 2 * in + 1``; or one that raises on chunk ``fail_at``."""
    calls = [0]

    def step(s: Any, din: Any, dout: Any) -> None:
        if calls[0] == fail_at:
            raise StepFailed(f"step failed on chunk {fail_at} on purpose")
        calls[0] += 1
        s.launch(affine, grid_for(chunk), BLOCK, din, dout)

    return step


class PatternDriver(CheckedDriver):
    """One world: CheckedDriver's calls, plus making anything on this world's backend."""

    def made(self, make: Callable[[], R]) -> R:
        return self._made_here(make)

    def host(self, kind: str, n: int) -> Any:
        alloc = nx.mapped_array if kind == "mapped" else nx.pinned_array
        return self.made(lambda: alloc(n, np.float64))

    def pin_in_place(self, a: NDArray[np.float64]) -> Any:
        return self.made(lambda: nx.pinned(a))

    def filled(self, data: NDArray[np.float64]) -> Any:
        h = self.pinned(data.size)
        self.fill(h, slice(None), data)
        return h


Outcome = tuple[bool, Any]  # (succeeded, result or exception)


def race(first: Callable[[], Any], second: Callable[[], Any], swap: bool) -> list[Outcome]:
    """Run two calls in two threads at once (started in either order); their outcomes."""
    out: list[Outcome] = [(False, None), (False, None)]

    def runner(k: int, call: Callable[[], Any]) -> None:
        try:
            out[k] = (True, call())
        except Exception as e:
            out[k] = (False, e)

    threads = [threading.Thread(target=runner, args=(k, c)) for k, c in enumerate((first, second))]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        for t in reversed(threads) if swap else threads:
            t.start()
        for t in threads:
            t.join(JOIN_TIMEOUT)
    finally:
        sys.setswitchinterval(old)
    if any(t.is_alive() for t in threads):
        raise Violation("deadlock", f"a thread pair did not finish within {JOIN_TIMEOUT} s")
    return out


def said(o: Outcome) -> str:
    ok, v = o
    return "ok" if ok else f"{type(v).__name__}: {v}"


def failed_with(o: Outcome, error: ErrorType) -> bool:
    return not o[0] and type(o[1]) is error


class PatternPrograms(RuleBasedStateMachine):
    """The program generator and the property (see the module docstring)."""

    started: ClassVar[int] = 0
    #: Thread pairs whose outcome no serial order gives (see ``thread_pair``).
    thread_findings: ClassVar[list[str]] = []

    def __init__(self) -> None:
        super().__init__()
        type(self).started += 1
        self.worlds: list[PatternDriver] = []
        self.schedules: list[str] = []
        self.hosts: list[Handle] = []  # every host handle ever made
        self.host_bufs: list[HostBuf] = []
        self.devices: list[Handle] = []
        self.dev_bufs: list[m.Buffer] = []
        self.streams: list[Handle] = []
        self.xfers: list[Xfer] = []
        self.pool_held: set[int] = set()  # ids of transfers recycled into a pool
        #: live lends: (lender, lent handle, scopes, flags whose lend count it raised)
        self.lends: list[tuple[Handle, Handle, list[Any], list[m.Flag]]] = []
        self.limbo: set[int] = set()  # ids of lent handles whose lender's block ended
        self.expired: list[Handle] = []
        self.pipes: list[pm.PipeM] = []
        self.runs: list[pm.RunM] = []
        self.maps: list[pm.MapM] = []
        self.pools: list[pm.PoolM] = []
        self.scopes: list[pm.ScopeM] = []
        self.counter = 0
        self.previous_backend = _backend._current

    # -- worlds ---------------------------------------------------------------------------
    @initialize(first=st.sampled_from(["lazy", "eager"]), seed1=SEEDS, seed2=SEEDS)
    def start(self, first: str, seed1: int, seed2: int) -> None:
        """Three worlds; two streams, two pinned arrays, one mapped array, two device
        arrays."""
        self.schedules = [first, f"random:{seed1}", f"random:{seed2}"]
        for schedule in (Schedule(first), Schedule.random(seed1), Schedule.random(seed2)):
            self.worlds.append(PatternDriver(EmulatorBackend(schedule)))
        for k in range(2):
            core = m.Core(f"s{k}")
            self.streams.append(
                Handle("stream", core.name, m.Flag(), [d.stream() for d in self.worlds], core=core)
            )
            self.make_host("pinned", N)
            buf = m.Buffer(f"dev{k}", np.zeros(N))
            dv = Handle("device", buf.name, m.Flag(), [d.device(N) for d in self.worlds], buf=buf)
            buf.current = dv
            self.dev_bufs.append(buf)
            self.devices.append(dv)
        self.make_host("mapped", N)

    def value(self) -> float:
        self.counter += 1
        return float(1_000_000 + self.counter)

    def run(
        self, errs: list[ErrorType], what: str, call: Callable[[PatternDriver, int], R]
    ) -> list[R]:
        """Run ``call`` in every world; check it raised ``errs[0]`` (exact type) in every
        world, or, ``errs`` empty, succeeded in every world. Returns the results ([] when
        it failed as it had to)."""
        expected = errs[0] if errs else None
        results: list[R] = []
        for w, driver in enumerate(self.worlds):
            try:
                result = call(driver, w)
            except Exception as e:
                if expected is None:
                    raise Violation(
                        "unexpected error", f"{what} raised {type(e).__name__}: {e}"
                    ) from e
                if type(e) is not expected:
                    raise Violation(
                        "wrong error",
                        f"{what} raised {type(e).__name__} ({e}), expected {expected.__name__}",
                    ) from e
                continue
            if expected is not None:
                raise Violation("missing error", f"{what} returned; expected {expected.__name__}")
            results.append(result)
        return results

    def same(self, what: str, actual: Any, expected: NDArray[Any], w: int) -> None:
        if not np.array_equal(actual, expected):
            raise Violation(
                "wrong result",
                f"{what} in world {w} ({self.worlds[w].backend.describe()}): "
                f"got {np.asarray(actual).tolist()}, expected {expected.tolist()}",
            )

    # -- picking ----------------------------------------------------------------------------
    def live_lent(self, kind: str) -> list[Handle]:
        return [v for _, v, _, _ in self.lends if v.kind == kind and id(v) not in self.limbo]

    def current_hosts(self) -> list[Handle]:
        owners = [b.current for b in self.host_bufs if b.current is not None]
        if "mapped_copy" in SKIP:
            owners = [h for h in owners if pm.host_buf(h).kind != "mapped"]
        return owners + self.live_lent("host")

    def pick_host(self, i: int, who: int) -> Handle | None:
        pool = self.current_hosts()
        if who == 0:
            pool = [h for h in self.hosts if id(h) not in self.limbo] or pool
            if "mapped_copy" in SKIP:
                pool = [h for h in pool if pm.host_buf(h).kind != "mapped"]
        return pool[i % len(pool)] if pool else None

    def usable_hosts(self) -> list[Handle]:
        """Owner handles that may be moved now, of N elements."""
        return [
            h
            for h in self.current_hosts()
            if h.owner is None and h.flag.exclusive() is None and h.shape == (N,)
        ]

    def pick_stream(self, i: int, who: int = 1) -> Handle:
        pool = [h for h in self.streams if id(h) not in self.limbo]
        if who != 0:
            pool = [h for h in pool if h.owner is None or h.flag.mode == m.FREE]
        return pool[i % len(pool)]

    def open_stream(self) -> Handle:
        """An open owner stream (made if none is left)."""
        for h in self.streams:
            if h.owner is None and h.core is not None and not h.core.closed:
                return h
        core = m.Core(f"s{len(self.streams)}")
        h = Handle("stream", core.name, m.Flag(), [d.stream() for d in self.worlds], core=core)
        self.streams.append(h)
        return h

    def pick_device(self, i: int, mapped: bool) -> Handle:
        """A device array: a plain one, or (mapped) a live mapping's ``device``."""
        pool = [b.current for b in self.dev_bufs if b.current is not None]
        if mapped:
            pool = [mp.device for mp in self.maps if not mp.dropped] or pool
        return pool[i % len(pool)]

    def program_xfers(self, who: int) -> list[Xfer]:
        return [
            t
            for t in self.xfers
            if not t.dropped and id(t) not in self.pool_held and (who == 0 or not t.completed)
        ]

    # -- allocation -------------------------------------------------------------------------
    @rule(kind=st.sampled_from(["pinned", "pinned", "mapped"]), size=st.sampled_from([N, N, 8]))
    def new_host(self, kind: str, size: int) -> None:
        live = [b for b in self.host_bufs if not (b.freed or b.orphaned)]
        if len(live) < MAX_HOST and len(self.host_bufs) < MAX_MADE:
            self.make_host(kind, size)

    def make_host(self, kind: str, size: int) -> Handle:
        k = len(self.host_bufs)
        data = np.arange(size, dtype=np.float64) + 1000.0 * (k + 1)
        real = [d.host(kind, size) for d in self.worlds]
        for d, h in zip(self.worlds, real, strict=True):
            d.fill(h, slice(None), data)
        buf = HostBuf(f"{kind}{k}", data.copy(), kind=kind)
        return self.adopt(buf, real, buf.name)

    def adopt(self, buf: HostBuf, real: list[Any], name: str, mode: int = m.FREE) -> Handle:
        """A new owner handle of ``buf`` (made, taken, or returned by a wait)."""
        h = Handle("host", name, m.Flag(mode=mode), real, buf=buf)
        buf.current = h
        self.hosts.append(h)
        if buf not in self.host_bufs:
            self.host_bufs.append(buf)
        return h

    def returned(self, old: Handle, real: list[Any], what: str) -> Handle:
        """The handle a wait() gave back for ``old``: owned, or expired at once when it
        belongs to an nx.pinned() block that has ended; mapped if ``old`` was."""
        buf = pm.host_buf(old)
        if any(r is old.real[w] for w, r in enumerate(real)):
            raise Violation("wrong result", f"{what} returned the moved handle itself")
        if buf.kind == "mapped":
            for w, r in enumerate(real):
                if not isinstance(r, nx.MappedArray):
                    raise Violation(
                        "wrong result",
                        f"{what} gave back {type(r).__name__} for a MappedArray in world {w}",
                    )
        ended = buf.scope is not None and not buf.scope.open
        return self.adopt(buf, real, buf.name + "'", m.EXPIRED if ended else m.FREE)

    # -- host access, copies, kernels -------------------------------------------------------
    def do_write(self, h: Handle, element: int | None) -> None:
        buf = pm.host_buf(h)
        index: int | slice = slice(None) if element is None else element % buf.data.size
        v = self.value()
        if self.run(
            m.errors(h.flag.exclusive()), f"write {h}", lambda d, w: d.fill(h.real[w], index, v)
        ):
            buf.data[index] = v
            if element is None:
                buf.unknown = False

    @rule(i=INDEX, who=WHO, element=st.one_of(st.none(), st.integers(0, N - 1)))
    def write(self, i: int, who: int, element: int | None) -> None:
        h = self.pick_host(i, who)
        if h is not None:
            self.do_write(h, element)

    def do_read(self, h: Handle) -> None:
        buf = pm.host_buf(h)
        views = self.run(m.errors(h.flag.readable()), f"read {h}", lambda d, w: d.read(h.real[w]))
        if not buf.unknown:
            for w, view in enumerate(views):
                self.same(f"read {h}", view, buf.data, w)

    @rule(i=INDEX, who=WHO)
    def read(self, i: int, who: int) -> None:
        h = self.pick_host(i, who)
        if h is not None:
            self.do_read(h)

    @rule(i=INDEX)
    def unseal_read_view(self, i: int) -> None:
        """A read() view (of an owner or a lent handle) cannot be made writable."""
        h = self.pick_host(i, 1)
        if h is None or h.flag.readable() is not None or "read_only" in SKIP:
            return

        def unseal(d: PatternDriver, w: int) -> None:
            d.read(h.real[w]).setflags(write=True)

        self.run([ValueError], f"{h}.read().setflags(write=True)", unseal)

    def do_upload(self, s: Handle, h: Handle, dv: Handle) -> None:
        assert dv.buf is not None
        real = self.run(
            m.upload(s, h, dv),
            f"{s}.upload({h}, to={dv})",
            lambda d, w: d.upload(s.real[w], h.real[w], dv.real[w]),
        )
        if real:
            dv.buf.data = pm.host_buf(h).data.copy()
            self.start_xfer("upload", s, real, h)

    def do_download(self, s: Handle, dv: Handle, h: Handle) -> None:
        assert dv.buf is not None
        real = self.run(
            m.download(s, dv, h),
            f"{s}.download({dv}, into={h})",
            lambda d, w: d.download(s.real[w], dv.real[w], h.real[w]),
        )
        if real:
            buf = pm.host_buf(h)
            buf.data = dv.buf.data.copy()
            buf.unknown = False
            self.start_xfer("download", s, real, h)

    def start_xfer(self, kind: str, s: Handle, real: list[Any], h: Handle) -> Xfer:
        assert s.core is not None
        t = Xfer(kind, f"{kind}{len(self.xfers)}", s.core, real, moved=h)
        h.flag.mode = m.MOVED
        s.core.pending.append(t)
        self.xfers.append(t)
        return t

    @rule(s=INDEX, i=INDEX, j=INDEX, who=WHO, down=st.booleans())
    def copy(self, s: int, i: int, j: int, who: int, down: bool) -> None:
        """An upload, or a download."""
        h = self.pick_host(i, who)
        if h is None:
            return
        st_, dv = self.pick_stream(s), self.pick_device(j, False)
        if down:
            self.do_download(st_, dv, h)
        else:
            self.do_upload(st_, h, dv)

    def complete(self, t: Xfer) -> None:
        returned = self.run(m.wait(t), f"wait {t}", lambda d, w: d.wait(t.real[w]))
        if not returned:
            return
        t.completed = True
        if t in t.core.pending:
            t.core.pending.remove(t)
        assert t.moved is not None
        self.returned(t.moved, returned, f"wait {t}")

    @rule(t=INDEX, who=WHO, again=st.sampled_from([False, False, True]))
    def wait(self, t: int, who: int, again: bool) -> None:
        pool = self.program_xfers(who)
        if pool:
            x = pool[t % len(pool)]
            self.complete(x)
            if again:
                self.complete(x)

    @rule(t=INDEX)
    def done(self, t: int) -> None:
        pool = self.program_xfers(0)
        if pool:
            x = pool[t % len(pool)]
            answers = self.run([], f"done {x}", lambda d, w: d.done(x.real[w]))
            if x.completed and not all(answers):
                raise Violation("wrong result", f"done() of completed {x} answered {answers}")

    @rule(t=INDEX, rarely=RARELY, scoped=st.booleans())
    def drop(self, t: int, rarely: int, scoped: bool) -> None:
        """Drop an unfinished transfer: a ResourceWarning in every world (scoped: prefer
        one of an nx.pinned() handle, whose block must then end with an error)."""
        pool = [x for x in self.program_xfers(1) if x.moved is not None]
        if "scope_drop" in SKIP:
            pool = [x for x in pool if x.moved is not None and pm.host_buf(x.moved).scope is None]
        if scoped:
            pool = [x for x in pool if x.moved and pm.host_buf(x.moved).scope] or pool
        if rarely or not pool:
            return
        x = pool[t % len(pool)]
        x.dropped = True
        x.core.pending.remove(x)
        assert x.moved is not None
        pm.host_buf(x.moved).orphaned = True
        self.expect_resource_warnings(x.real, f"dropping {x}")

    def expect_resource_warnings(self, real: list[Any], what: str) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            real.clear()
            gc.collect()
        got = sum(issubclass(c.category, ResourceWarning) for c in caught)
        if got < len(self.worlds):
            raise Violation(
                "missing error", f"{what} gave {got} ResourceWarning(s), not one per world"
            )

    def do_launch(self, s: Handle, dst: Handle, src: Handle | None, c: float) -> None:
        """add_const(dst, c), or mix_declared(dst, src) (src only read)."""
        assert dst.buf is not None
        n = dst.buf.data.size
        uses = [(dst, True)] if src is None else [(dst, True), (src, False)]
        if src is not None:
            assert src.buf is not None
            if src.buf.data.shape != dst.buf.data.shape:
                return
        name = "add_const" if src is None else "mix_declared"

        def launch(d: PatternDriver, w: int) -> None:
            if src is None:
                d.launch(s.real[w], add_const, n, [dst.real[w], c])
            else:
                d.launch(s.real[w], mix_declared, n, [dst.real[w], src.real[w]])

        if self.run(m.launch(s, uses), f"{s}.launch({name}, {dst}, {src})", launch):
            if src is None:
                dst.buf.data = dst.buf.data + c
            else:
                assert src.buf is not None
                dst.buf.data = m.mix(dst.buf.data, src.buf.data)

    @rule(s=INDEX, i=INDEX, j=INDEX, mapped=st.booleans(), mixed=st.booleans())
    def launch(self, s: int, i: int, j: int, mapped: bool, mixed: bool) -> None:
        """A kernel on a device array or a mapping's device (mixed: a plain device array
        written from a mapping's device, read)."""
        st_ = self.pick_stream(s)
        if mixed:
            self.do_launch(st_, self.pick_device(i, False), self.pick_device(j, True), 0.0)
        else:
            self.do_launch(st_, self.pick_device(i, mapped), None, float(1 + j % 3))

    @rule(kind=st.sampled_from(["host", "device"]), i=INDEX, who=WHO, rarely=RARELY)
    def free(self, kind: str, i: int, who: int, rarely: int) -> None:
        if rarely:
            return
        x = self.pick_host(i, who) if kind == "host" else self.pick_device(i, False)
        if x is None or (x.kind == "host" and pm.host_buf(x).kind in ("pool", "scoped")):
            return
        assert x.buf is not None
        if self.run(m.errors(x.flag.exclusive()), f"free {x}", lambda d, w: d.free(x.real[w])):
            x.flag.mode = m.MOVED
            x.buf.freed = True

    @rule(s=INDEX, who=WHO, rarely=RARELY)
    def close(self, s: int, who: int, rarely: int) -> None:
        st_ = self.pick_stream(s, who)
        if not rarely:
            self.do_close(st_)

    def do_close(self, s: Handle) -> None:
        assert s.core is not None
        if self.run(m.close(s), f"{s}.close()", lambda d, w: d.close(s.real[w])):
            s.core.closed = True

    # -- lends, and lends of lends -----------------------------------------------------------
    @rule(kind=st.sampled_from(["host", "stream"]), i=INDEX, again=st.booleans())
    def lend(self, kind: str, i: int, again: bool) -> None:
        """Lend a handle; again: lend a live lent handle (a lend of a lend)."""
        if again and "lend2" not in SKIP:
            pool = self.live_lent(kind)
        elif kind == "host":
            pool = [b.current for b in self.host_bufs if b.current is not None]
        else:
            pool = [h for h in self.streams if h.owner is None]
        if pool:
            self.do_lend(pool[i % len(pool)])

    def do_lend(self, x: Handle) -> None:
        lent = self.run(m.errors(x.flag.readable()), f"lend {x}", lambda d, w: d.lend(x.real[w]))
        if not lent:
            return
        view = Handle(
            x.kind,
            f"{x.name}.lent",
            m.Flag(read_only=True),
            [v for _, v in lent],
            buf=x.buf,
            core=x.core,
            owner=x,
        )
        # Decided: every lend in a chain keeps the root owner locked while it lives.
        flags = [x.flag] if x.owner is None else [x.flag, pm.root(x).flag]
        for f in flags:
            f.lends += 1
        self.lends.append((x, view, [s for s, _ in lent], flags))
        (self.hosts if x.kind == "host" else self.streams).append(view)

    @precondition(lambda self: bool(self.lends))
    @rule(k=INDEX)
    def end_lend(self, k: int) -> None:
        """End any live lend, in any order (a middle one before the one taken from it)."""
        if self.lends:
            self.do_end_lend(k % len(self.lends))

    def do_end_lend(self, k: int) -> None:
        _, view, scopes, flags = self.lends.pop(k)
        for d, scope in zip(self.worlds, scopes, strict=True):
            d.end_scope(scope)
        view.flag.mode = m.EXPIRED
        for f in flags:
            f.lends -= 1
        for _, v, _, _ in self.lends:
            if v.owner is view:  # lent from a handle that has expired: not used again
                self.limbo.add(id(v))
        self.expired.append(view)

    @rule(kind=st.sampled_from(["host", "stream"]), i=INDEX, what=st.integers(0, 3))
    def lend_chain(self, kind: str, i: int, what: int) -> None:
        """The whole pattern in one step: lend, lend the lent handle, end the middle
        lend first, then misuse the root owner while the inner lend lives."""
        if "lend2" in SKIP:
            return
        if kind == "host":
            pool = [b.current for b in self.host_bufs if b.current is not None]
        else:
            pool = [h for h in self.streams if h.owner is None]
        if not pool:
            return
        before = len(self.lends)
        self.do_lend(pool[i % len(pool)])
        if len(self.lends) == before:
            return
        self.do_lend(self.lends[-1][1])
        if len(self.lends) == before + 2:
            self.do_end_lend(before)
            self.misuse_root(len(self.lends) - 1, what)

    @precondition(lambda self: bool(self.lends))
    @rule(k=INDEX, what=st.integers(0, 3))
    def misuse_root(self, k: int, what: int) -> None:
        """While any lend in a chain lives, its root owner may not be written, moved,
        freed or closed (BorrowError)."""
        if not self.lends:
            return
        x = pm.root(self.lends[k % len(self.lends)][1])
        if x.kind == "stream":
            if what % 2:
                self.do_close(x)
            else:
                self.do_launch(x, self.pick_device(k, False), None, 1.0)
            return
        if pm.host_buf(x).current is not x:
            return
        s, dv = self.open_stream(), self.pick_device(k, False)
        [
            lambda: self.do_write(x, None),
            lambda: self.do_upload(s, x, dv),
            lambda: self.do_download(s, dv, x),
            lambda: self.do_free_host(x),
        ][what]()

    def do_free_host(self, x: Handle) -> None:
        if pm.host_buf(x).kind in ("pool", "scoped"):
            return
        if self.run(m.errors(x.flag.exclusive()), f"free {x}", lambda d, w: d.free(x.real[w])):
            x.flag.mode = m.MOVED
            pm.host_buf(x).freed = True

    @precondition(lambda self: bool(self.expired))
    @rule(k=INDEX)
    def use_expired(self, k: int) -> None:
        if self.expired:
            x = self.expired[k % len(self.expired)]
            if x.kind == "host":
                self.do_read(x)
            else:
                self.do_launch(x, self.pick_device(k, False), None, 1.0)

    # -- Pipeline ----------------------------------------------------------------------------
    @precondition(lambda self: len(self.pipes) < MAX_PIPES)
    @rule(chunk=st.sampled_from([8, 16]), slots=st.integers(1, 3))
    def new_pipeline(self, chunk: int, slots: int) -> None:
        if len(self.pipes) < MAX_PIPES:
            real = [
                d.made(lambda: nx.Pipeline(chunk, np.float64, slots=slots)) for d in self.worlds
            ]
            self.pipes.append(pm.PipeM(f"pipe{len(self.pipes)}", real, chunk, slots))

    @precondition(lambda self: bool(self.pipes))
    @rule(
        p=INDEX,
        i=INDEX,
        j=INDEX,
        who=WHO,
        fail=st.one_of(st.none(), st.none(), st.integers(0, 1)),
        bad=st.sampled_from([False, False, False, True]),
    )
    def pipe_map(self, p: int, i: int, j: int, who: int, fail: int | None, bad: bool) -> None:
        """``pipe.map(src, into=dst, step=...)``; fail: a step that raises on that chunk
        (if there is one); bad: step=None."""
        if not self.pipes:
            return
        pipe = self.pipes[p % len(self.pipes)]
        good = self.usable_hosts()
        src: Handle | None
        dst: Handle | None
        if who > 2 and len(good) >= 2:
            src, dst = good[i % len(good)], good[(i + 1 + j % (len(good) - 1)) % len(good)]
        else:
            src, dst = self.pick_host(i, who), self.pick_host(j, 1)
        if src is None or dst is None:
            return
        errs = pm.pipeline_map(pipe, src, dst)
        failing = fail is not None and fail < N // pipe.chunk and "step_error" not in SKIP
        bad = bad and "bad_step" not in SKIP
        if not errs and (failing or bad):
            self.failed_map(pipe, src, dst, None if bad else fail)
            return
        what = f"{pipe.name}.map({src}, into={dst})"
        real = self.run(
            errs,
            what,
            lambda d, w: pipe.real[w].map(
                src.real[w], into=dst.real[w], step=make_step(pipe.chunk)
            ),
        )
        if real:
            sbuf, dbuf = pm.host_buf(src), pm.host_buf(dst)
            dbuf.data = pm.affine(sbuf.data)
            dbuf.unknown = sbuf.unknown
            src.flag.mode = dst.flag.mode = m.MOVED
            self.runs.append(pm.RunM(f"run{len(self.runs)}", pipe, real, src, dst))

    def failed_map(self, pipe: pm.PipeM, src: Handle, dst: Handle, fail: int | None) -> None:
        """Decided: a step that raises propagates, and src and into (the same handles)
        are usable again, src with its data; step=None: TypeError before anything moves.
        Then the program writes all of dst (whose contents a failed map leaves
        undefined), which must not be overwritten later by the abandoned chunks."""
        error: ErrorType = TypeError if fail is None else StepFailed

        def call(d: PatternDriver, w: int) -> Any:
            step = None if fail is None else make_step(pipe.chunk, fail)
            return pipe.real[w].map(src.real[w], into=dst.real[w], step=step)

        self.run([error], f"{pipe.name}.map({src}, into={dst}, failing step {fail})", call)
        if fail is not None:
            pm.host_buf(dst).unknown = True
        self.do_read(src)
        self.do_write(dst, None)

    def pick_run(self, r: int, who: int) -> pm.RunM | None:
        pool = [x for x in self.runs if who == 0 or not x.completed]
        return pool[r % len(pool)] if pool else None

    @precondition(lambda self: bool(self.runs))
    @rule(r=INDEX, who=WHO, again=st.sampled_from([False, False, True]))
    def run_wait(self, r: int, who: int, again: bool) -> None:
        run = self.pick_run(r, who)
        if run is None:
            return
        self.complete_run(run)
        if again:
            self.complete_run(run)

    def complete_run(self, run: pm.RunM) -> None:
        got = self.run(
            pm.completed_twice(run.completed), f"wait {run.name}", lambda d, w: run.real[w].wait()
        )
        if not got:
            return
        run.completed = True
        self.returned(run.src, [s for s, _ in got], f"wait {run.name} (src)")
        self.returned(run.dst, [t for _, t in got], f"wait {run.name} (into)")

    @precondition(lambda self: bool(self.runs))
    @rule(r=INDEX)
    def run_done(self, r: int) -> None:
        run = self.pick_run(r, 0)
        if run is not None:
            answers = self.run([], f"done {run.name}", lambda d, w: bool(run.real[w].done()))
            if run.completed and not all(answers):
                raise Violation("wrong result", f"done() of completed {run.name}: {answers}")

    @precondition(lambda self: bool(self.pipes))
    @rule(p=INDEX, rarely=RARELY)
    def pipe_close(self, p: int, rarely: int) -> None:
        if self.pipes and not rarely:
            self.do_pipe_close(self.pipes[p % len(self.pipes)])

    def do_pipe_close(self, pipe: pm.PipeM) -> None:
        if self.run(
            pm.pipeline_close(pipe, self.runs),
            f"{pipe.name}.close()",
            lambda d, w: pipe.real[w].close(),
        ):
            pipe.closed = True

    # -- Stream.map / Mapping ----------------------------------------------------------------
    @rule(s=INDEX, i=INDEX, who=WHO)
    def map_array(self, s: int, i: int, who: int) -> None:
        st_ = self.pick_stream(s)
        owners = [b.current for b in self.host_bufs if b.current is not None]
        mapped = [h for h in owners if pm.host_buf(h).kind == "mapped"]
        pool = owners if who == 0 else (mapped or owners)
        if who == 1:  # a dead mapped handle
            pool = [h for h in self.hosts if pm.host_buf(h).kind == "mapped" and h.owner is None]
        if not pool:
            return
        h = pool[i % len(pool)]
        real = self.run(
            pm.stream_map(st_, h), f"{st_}.map({h})", lambda d, w: st_.real[w].map(h.real[w])
        )
        if real:
            h.flag.mode = m.MOVED
            device = Handle("device", f"{h}.device", m.Flag(), [x.device for x in real], buf=h.buf)
            self.maps.append(pm.MapM(f"mapping{len(self.maps)}", real, h, device))

    def pick_map(self, k: int, who: int) -> pm.MapM | None:
        pool = [x for x in self.maps if not x.dropped and (who == 0 or not x.completed)]
        return pool[k % len(pool)] if pool else None

    @precondition(lambda self: bool(self.maps))
    @rule(k=INDEX, who=WHO, again=st.sampled_from([False, False, True]))
    def mapping_wait(self, k: int, who: int, again: bool) -> None:
        mp = self.pick_map(k, who)
        if mp is None:
            return
        self.complete_mapping(mp)
        if again:
            self.complete_mapping(mp)

    def complete_mapping(self, mp: pm.MapM) -> None:
        got = self.run(
            pm.completed_twice(mp.completed), f"wait {mp.name}", lambda d, w: mp.real[w].wait()
        )
        if got:
            mp.completed = True
            mp.device.flag.mode = m.MOVED
            self.returned(mp.host, got, f"wait {mp.name}")

    @precondition(lambda self: bool(self.maps))
    @rule(k=INDEX)
    def mapping_done(self, k: int) -> None:
        """done() turns True when polled (the lazy schedule answers the second query),
        and stays True once the mapping is completed."""
        mp = self.pick_map(k, 0)
        if mp is None or "map_done" in SKIP:
            return

        def poll(d: PatternDriver, w: int) -> int:
            for tries in range(8):
                if mp.real[w].done():
                    return tries
            return 8

        tries = self.run([], f"done {mp.name} in a loop", poll)
        if any(t == 8 for t in tries) or (mp.completed and any(tries)):
            raise Violation(
                "wrong result", f"done() of {mp.name} polled: answered after {tries} tries"
            )

    @precondition(lambda self: bool(self.maps))
    @rule(k=INDEX)
    def mapping_free_device(self, k: int) -> None:
        """The mapping owns its device array: free() is refused; wait() still works."""
        mp = self.pick_map(k, 0)
        if mp is not None and "map_free" not in SKIP:
            self.run(
                pm.mapping_free_device(mp),
                f"{mp.name}.device.free()",
                lambda d, w: mp.real[w].device.free(),
            )

    @precondition(lambda self: bool(self.maps))
    @rule(k=INDEX)
    def racy_peek(self, k: int) -> None:
        """racy_peek() gives a read-only view: it cannot be made writable."""
        mp = self.pick_map(k, 1)
        if mp is None or "read_only" in SKIP:
            return

        def peek(d: PatternDriver, w: int) -> None:
            view = mp.real[w].racy_peek()
            if view.shape != mp.host.shape:
                raise Violation("wrong result", f"racy_peek() of {mp.name} has shape {view.shape}")
            view.setflags(write=True)

        self.run([ValueError], f"{mp.name}.racy_peek().setflags(write=True)", peek)

    @precondition(lambda self: bool(self.maps))
    @rule(k=INDEX, rarely=RARELY)
    def drop_mapping(self, k: int, rarely: int) -> None:
        mp = self.pick_map(k, 1)
        if mp is None or rarely or "map_drop" in SKIP:
            return
        mp.dropped = True
        pm.host_buf(mp.host).orphaned = True
        mp.device.real.clear()
        self.expect_resource_warnings(mp.real, f"dropping {mp.name}")

    # -- PinnedPool --------------------------------------------------------------------------
    @precondition(lambda self: len(self.pools) < MAX_POOLS)
    @rule(count=st.integers(1, 2))
    def new_pool(self, count: int) -> None:
        if len(self.pools) >= MAX_POOLS:
            return
        real = [d.made(lambda: nx.PinnedPool(count, N, np.float64)) for d in self.worlds]
        pool = pm.PoolM(f"pool{len(self.pools)}", real)
        for k in range(count):
            buf = HostBuf(f"{pool.name}.buf{k}", np.zeros(N), kind="pool", pool=pool)
            pool.bufs.append(buf)
            pool.free.append(buf)
            self.host_bufs.append(buf)
        self.pools.append(pool)

    @precondition(lambda self: bool(self.pools))
    @rule(p=INDEX, block=st.booleans())
    def take(self, p: int, block: bool) -> None:
        if self.pools:
            self.do_take(self.pools[p % len(self.pools)], block)

    def do_take(self, pool: pm.PoolM, block: bool) -> None:
        """Free buffers first, in order; else the one recycled transfer, completed (with
        two or more, which one comes back depends on the schedule: not generated); an
        empty pool: None (block=False) or TimeoutError (timeout=0)."""
        if pool.free:
            buf = pool.free[0]
        elif len(pool.recycled) == 1:
            x = pool.recycled[0]
            assert x.moved is not None
            buf = pm.host_buf(x.moved)
        elif pool.recycled:
            return
        else:
            if block:
                self.run(
                    [TimeoutError],
                    f"{pool.name}.take(timeout=0)",
                    lambda d, w: pool.real[w].take(timeout=0),
                )
                return
            got = self.run(
                [], f"{pool.name}.take(block=False)", lambda d, w: pool.real[w].take(block=False)
            )
            if any(g is not None for g in got):
                raise Violation(
                    "wrong result", f"{pool.name}.take(block=False) of an empty pool: {got}"
                )
            return
        blocking = block or not pool.free
        real = self.run([], f"{pool.name}.take()", lambda d, w: pool.real[w].take(block=blocking))
        if any(r is None for r in real):
            raise Violation("wrong result", f"{pool.name}.take() gave None: {real}")
        if pool.free:
            pool.free.pop(0)
        else:
            x = pool.recycled.pop(0)
            x.completed = True
            x.core.pending.remove(x)
        self.adopt(buf, real, buf.name)

    @precondition(lambda self: bool(self.pools))
    @rule(p=INDEX, i=INDEX, who=WHO)
    def give(self, p: int, i: int, who: int) -> None:
        if not self.pools:
            return
        pool = self.pools[p % len(self.pools)]
        members = [b.current for b in pool.bufs if b.current is not None]
        h = members[i % len(members)] if members and who > 1 else self.pick_host(i, who)
        if h is None:
            return
        if self.run(
            pm.pool_give(pool, h),
            f"{pool.name}.give({h})",
            lambda d, w: pool.real[w].give(h.real[w]),
        ):
            h.flag.mode = m.MOVED
            buf = pm.host_buf(h)
            buf.current = None
            pool.free.append(buf)
            if "give_message" not in SKIP:
                self.read_given(h)

    def read_given(self, h: Handle) -> None:
        """Decided: the message speaks of the pool, not of a copy still running."""
        for w, d in enumerate(self.worlds):
            try:
                d.read(h.real[w])
            except nx.UseAfterTransferError as e:
                text = str(e)
                if "pool" not in text.lower() or "may still be running" in text:
                    raise Violation("wrong error", f"read of {h} given back: {text}") from e
            else:
                raise Violation("missing error", f"read of {h} after give() returned")

    @precondition(lambda self: bool(self.pools))
    @rule(p=INDEX, what=st.sampled_from(["give", "recycle"]))
    def pool_bad_input(self, p: int, what: str) -> None:
        if not self.pools or (what == "give" and "give_numpy" in SKIP):
            return
        pool = self.pools[p % len(self.pools)]
        if what == "give":
            self.run(
                [TypeError], f"{pool.name}.give(numpy)", lambda d, w: pool.real[w].give(np.zeros(N))
            )
        else:
            self.run(
                [TypeError], f"{pool.name}.recycle(None)", lambda d, w: pool.real[w].recycle(None)
            )

    @precondition(lambda self: bool(self.pools))
    @rule(p=INDEX, t=INDEX, who=WHO)
    def recycle(self, p: int, t: int, who: int) -> None:
        """Hand an unfinished transfer of a pool buffer to its pool (who 0: any transfer,
        completed ones and strangers' too)."""
        if not self.pools:
            return
        pool = self.pools[p % len(self.pools)]
        xs = self.program_xfers(who)
        if who != 0:
            xs = [x for x in xs if x.moved is not None and pm.host_buf(x.moved).pool is pool] or xs
        if not xs:
            return
        x = xs[t % len(xs)]
        if self.run(
            pm.pool_recycle(pool, x),
            f"{pool.name}.recycle({x})",
            lambda d, w: pool.real[w].recycle(x.real[w]),
        ):
            self.pool_held.add(id(x))
            pool.recycled.append(x)

    @precondition(lambda self: bool(self.pools))
    @rule(p=INDEX)
    def drain(self, p: int) -> None:
        if self.pools:
            self.do_drain(self.pools[p % len(self.pools)])

    def do_drain(self, pool: pm.PoolM) -> None:
        if self.run([], f"{pool.name}.drain()", lambda d, w: pool.real[w].drain()):
            for x in pool.recycled:
                x.completed = True
                x.core.pending.remove(x)
                assert x.moved is not None
                pool.free.append(pm.host_buf(x.moved))
            pool.recycled.clear()

    # -- nx.pinned() scopes --------------------------------------------------------------------
    @rule()
    def pin(self) -> None:
        """``with nx.pinned(a) as h:``, entered by hand; ended by end_scope."""
        if sum(s.open for s in self.scopes) >= MAX_SCOPES or len(self.host_bufs) >= MAX_MADE + 4:
            return
        k = len(self.scopes)
        data = np.arange(N, dtype=np.float64) + 500.0 * (k + 1)
        arrays = [data.copy() for _ in self.worlds]
        scopes = [d.pin_in_place(a) for d, a in zip(self.worlds, arrays, strict=True)]
        handles = [s.__enter__() for s in scopes]
        buf = HostBuf(f"scoped{k}", data.copy(), kind="scoped")
        buf.scope = pm.ScopeM(buf.name, arrays, scopes, buf)
        self.scopes.append(buf.scope)
        self.adopt(buf, handles, buf.name)

    @rule(s=INDEX, j=INDEX, down=st.booleans(), then=st.sampled_from(["wait", "drop", "leave"]))
    def scope_pattern(self, s: int, j: int, down: bool, then: str) -> None:
        """The whole pattern in one step: pin, a transfer of the handle, then wait for
        it inside the block, drop it, or leave it running; end the block (then complete
        the transfer, if it was left running)."""
        if then == "drop" and "scope_drop" in SKIP:
            return
        before = len(self.scopes)
        self.pin()
        if len(self.scopes) == before:
            return
        sc = self.scopes[-1]
        h = sc.buf.current
        assert h is not None
        st_, dv = self.open_stream(), self.pick_device(j, False)
        count = len(self.xfers)
        if down:
            self.do_download(st_, dv, h)
        else:
            self.do_upload(st_, h, dv)
        x = self.xfers[-1] if len(self.xfers) > count else None
        if x is not None and then == "wait":
            self.complete(x)
        elif x is not None and then == "drop":
            x.dropped = True
            x.core.pending.remove(x)
            sc.buf.orphaned = True
            self.expect_resource_warnings(x.real, f"dropping {x}")
        self.do_end_scope(sc)
        if x is not None and then == "leave":
            self.complete(x)

    def open_scopes(self) -> list[pm.ScopeM]:
        return [s for s in self.scopes if s.open]

    @precondition(lambda self: bool(self.open_scopes()))
    @rule(k=INDEX, half=st.booleans())
    def pin_again(self, k: int, half: bool) -> None:
        """Decided: pinning memory an open nx.pinned() block pins is a BorrowError."""
        scopes = self.open_scopes()
        if not scopes or "pin_again" in SKIP:
            return
        sc = scopes[k % len(scopes)]

        def again(d: PatternDriver, w: int) -> None:
            a = sc.arrays[w][: N // 2] if half else sc.arrays[w]
            scope = d.made(lambda: nx.pinned(a))
            scope.__enter__()
            scope.__exit__(None, None, None)

        self.run([nx.BorrowError], f"nx.pinned() again on {sc.name}", again)

    def scope_pending(self, buf: HostBuf, dropped: bool = True) -> bool:
        """Is a transfer (or pipeline run) of ``buf`` not completed? (dropped: count
        dropped transfers, too)."""
        xs = any(
            x.moved is not None and x.moved.buf is buf and not x.completed
            for x in self.xfers
            if dropped or not x.dropped
        )
        runs = any(not r.completed and buf in (r.src.buf, r.dst.buf) for r in self.runs)
        return xs or runs

    @precondition(lambda self: bool(self.open_scopes()))
    @rule(k=INDEX)
    def end_scope(self, k: int) -> None:
        scopes = self.open_scopes()
        if scopes:
            self.do_end_scope(scopes[k % len(scopes)])

    def do_end_scope(self, sc: pm.ScopeM) -> None:
        """Block exit: UnfinishedTransferError while a transfer of the memory is not
        completed (dropped ones included); either way the block ends and its handle
        expires. Not generated while the handle is lent."""
        if any(pm.root(v).buf is sc.buf for _, v, _, _ in self.lends):
            return
        what = f"end of nx.pinned() block {sc.name}"
        live = self.scope_pending(sc.buf, dropped=False)
        if live or not self.scope_pending(sc.buf):
            self.run(
                pm.scope_exit(live), what, lambda d, w: sc.scopes[w].__exit__(None, None, None)
            )
        else:
            # Only dropped transfers: UnfinishedTransferError if the copy is still
            # running at exit, which depends on the schedule (a query may have run it).
            for w, scope in enumerate(sc.scopes):
                try:
                    scope.__exit__(None, None, None)
                except nx.UnfinishedTransferError:
                    pass
                except Exception as e:
                    raise Violation(
                        "wrong error", f"{what} in world {w} raised {type(e).__name__}: {e}"
                    ) from e
        sc.open = False
        h = sc.buf.current
        if h is not None and h.flag.mode == m.FREE:
            h.flag.mode = m.EXPIRED

    # -- thread pairs ----------------------------------------------------------------------------
    @rule(
        pair=st.sampled_from(["close", "free", "write", "up2", "map2", "take2", "give"]),
        swap=st.booleans(),
    )
    def thread_pair(self, pair: str, swap: bool) -> None:
        """Two threads, two operations on shared handles (made for the pair, in every
        world): the outcome must be one that some serial order of the two gives.

        Which interleaving the threads take is not reproducible, so a failure here is
        not raised into hypothesis (it could not replay or shrink it): it is recorded in
        ``thread_findings`` (the pair is the whole counterexample), and the test fails
        at the end if there is any."""
        if "threads" in SKIP or f"t_{pair}" in SKIP:
            return
        for w, schedule in enumerate(self.schedules):
            for _ in range(PAIR_REPEATS):
                # A backend of the world's schedule, of its own: a pair that goes wrong
                # must not leave broken work in the program's worlds.
                d = PatternDriver(EmulatorBackend(Schedule.parse(schedule)))
                try:
                    getattr(self, f"pair_{pair}")(d, w, swap)
                except Exception as e:
                    finding = f"thread pair {pair} (swap={swap}): {type(e).__name__}: {e}"
                    if finding not in type(self).thread_findings:
                        type(self).thread_findings.append(finding)
                    return

    def expect(self, what: str, w: int, outcomes: list[Outcome], allowed: bool) -> None:
        if not allowed:
            raise Violation(
                "not serialisable",
                f"{what} in world {w} ({self.worlds[w].backend.describe()}): "
                + " / ".join(said(o) for o in outcomes),
            )

    def check(self, what: str, got: Any, expected: NDArray[Any], w: int) -> None:
        self.same(what, np.asarray(got), expected, w)

    def pair_close(self, d: PatternDriver, w: int, swap: bool) -> None:
        """close() vs upload() on one stream: the close wins (the upload raises
        StreamClosedError, src usable) or the upload wins (close raises)."""
        data = np.arange(N, dtype=np.float64) + 7.0
        s, h, dv = d.stream(), d.filled(data), d.device(N)
        a, b = race(s.close, lambda: s.upload(h, to=dv), swap)
        closed = a[0] and failed_with(b, nx.StreamClosedError)
        uploaded = b[0] and failed_with(a, nx.StreamClosedError)
        self.expect("close vs upload", w, [a, b], closed or uploaded)
        if closed:
            self.check("src after close won", d.read(h), data, w)
        else:
            self.check("src after upload won", d.read(b[1].wait()), data, w)
            self.check("device after upload won", d.contents(dv, N), data, w)
            s.close()

    def pair_free(self, d: PatternDriver, w: int, swap: bool) -> None:
        """free() of a device array vs an upload into it: the free wins (the upload raises
        UseAfterTransferError) or the upload wins (the free succeeds, deferred)."""
        data = np.arange(N, dtype=np.float64) + 9.0
        s, h, dv = d.stream(), d.filled(data), d.device(N)
        a, b = race(dv.free, lambda: s.upload(h, to=dv), swap)
        freed_first = a[0] and failed_with(b, nx.UseAfterTransferError)
        self.expect("free vs upload", w, [a, b], freed_first or (a[0] and b[0]))
        self.check("src after free vs upload", d.read(h if freed_first else b[1].wait()), data, w)
        s.close()

    def pair_write(self, d: PatternDriver, w: int, swap: bool) -> None:
        """A write() block vs an upload of the same array: write then upload (the device
        gets the new data), upload first (the write raises UseAfterTransferError), or the
        upload during the block (BorrowError)."""
        data, new = np.arange(N, dtype=np.float64), np.full(N, 5.0)
        s, h, dv = d.stream(), d.filled(data), d.device(N)
        a, b = race(lambda: d.fill(h, slice(None), new), lambda: s.upload(h, to=dv), swap)
        if a[0] and b[0]:
            self.check("device after write, upload", d.contents(dv, N), new, w)
            self.check("src after write, upload", d.read(b[1].wait()), new, w)
        elif b[0]:
            self.expect("write vs upload", w, [a, b], failed_with(a, nx.UseAfterTransferError))
            self.check("device after upload, write", d.contents(dv, N), data, w)
            self.check("src after upload, write", d.read(b[1].wait()), data, w)
        else:
            self.expect("write vs upload", w, [a, b], a[0] and failed_with(b, nx.BorrowError))
            self.check("src after a refused upload", d.read(h), new, w)
        s.close()

    def pair_up2(self, d: PatternDriver, w: int, swap: bool) -> None:
        """One array uploaded from two threads: exactly one upload takes it."""
        data = np.arange(N, dtype=np.float64) + 3.0
        s1, s2, h = d.stream(), d.stream(), d.filled(data)
        d1, d2 = d.device(N), d.device(N)
        a, b = race(lambda: s1.upload(h, to=d1), lambda: s2.upload(h, to=d2), swap)
        one = a[0] != b[0] and any(failed_with(o, nx.UseAfterTransferError) for o in (a, b))
        self.expect("upload vs upload", w, [a, b], one)
        won, dv = (a, d1) if a[0] else (b, d2)
        self.check("src after upload vs upload", d.read(won[1].wait()), data, w)
        self.check("device after upload vs upload", d.contents(dv, N), data, w)
        s1.close()
        s2.close()

    def pair_map2(self, d: PatternDriver, w: int, swap: bool) -> None:
        """Two threads map() on one Pipeline: each gets its own correct results."""
        pipe = d.made(lambda: nx.Pipeline(8, np.float64, slots=2))
        x1, x2 = np.arange(N, dtype=np.float64), np.arange(N, dtype=np.float64) * 10.0 + 1.0
        src1, src2, dst1, dst2 = d.filled(x1), d.filled(x2), d.pinned(N), d.pinned(N)
        a, b = race(
            lambda: pipe.map(src1, into=dst1, step=make_step(8)),
            lambda: pipe.map(src2, into=dst2, step=make_step(8)),
            swap,
        )
        self.expect("map vs map", w, [a, b], a[0] and b[0])
        for (_, run), x in ((a, x1), (b, x2)):
            src, dst = run.wait()
            self.check("src after map vs map", d.read(src), x, w)
            self.check("into after map vs map", d.read(dst), pm.affine(x), w)
        pipe.close()

    def pair_take2(self, d: PatternDriver, w: int, swap: bool) -> None:
        """Two threads take(block=False) from a pool of one: exactly one gets it."""
        pool = d.made(lambda: nx.PinnedPool(1, N, np.float64))
        a, b = race(lambda: pool.take(block=False), lambda: pool.take(block=False), swap)
        got = [o[1] for o in (a, b) if o[0] and o[1] is not None]
        self.expect("take vs take", w, [a, b], a[0] and b[0] and len(got) == 1)
        pool.give(got[0])

    def pair_give(self, d: PatternDriver, w: int, swap: bool) -> None:
        """give() vs take(block=False) on a pool of one whose buffer is out: the take
        gets None (it ran first) or the same buffer (the give ran first)."""
        pool = d.made(lambda: nx.PinnedPool(1, N, np.float64))
        buf = pool.take()
        assert buf is not None
        memory = d.read(buf)
        a, b = race(lambda: pool.give(buf), lambda: pool.take(block=False), swap)
        self.expect("give vs take", w, [a, b], a[0] and b[0])
        if b[1] is not None and not np.shares_memory(d.read(b[1]), memory):
            raise Violation("wrong result", f"give vs take in world {w}: a different buffer")

    # -- the property at every step --------------------------------------------------------------
    @invariant()
    def readable_host_arrays_hold_the_model(self) -> None:
        for buf in self.host_bufs:
            h = buf.current
            if h is not None and h.flag.mode == m.FREE and not (buf.unknown or buf.freed):
                self.do_read(h)
        for sc in self.scopes:
            buf = sc.buf
            if not (sc.open or buf.orphaned or buf.unknown or self.scope_pending(buf)):
                for w, a in enumerate(sc.arrays):
                    self.same(f"numpy array of ended block {sc.name}", a, buf.data, w)

    # -- the end --------------------------------------------------------------------------------
    def teardown(self) -> None:
        failing = sys.exc_info()[0] is not None
        try:
            if not failing and self.worlds:
                self.finish()
        finally:
            self.clean_up()

    def finish(self) -> None:
        """End every lend; complete every transfer, run and mapping; drain every pool and
        take its buffers; end every block; then compare every host and device array."""
        while self.lends:
            self.do_end_lend(len(self.lends) - 1)
        for x in self.program_xfers(1):
            self.complete(x)
        for r in [r for r in self.runs if not r.completed]:
            self.complete_run(r)
        for mp in [x for x in self.maps if not x.completed and not x.dropped]:
            self.complete_mapping(mp)
        for pool in self.pools:
            self.do_drain(pool)
            while pool.free:
                self.do_take(pool, False)
        for sc in self.open_scopes():
            self.do_end_scope(sc)
        self.readable_host_arrays_hold_the_model()
        for buf in self.dev_bufs:
            dv = buf.current
            if dv is not None and not buf.freed:
                for w, d in enumerate(self.worlds):
                    self.same(f"{dv} at the end", d.contents(dv.real[w], N), buf.data, w)
        for pipe in self.pipes:
            self.do_pipe_close(pipe)
        for s in self.streams:
            if s.owner is None and s.core is not None and not s.core.closed:
                self.do_close(s)

    def clean_up(self) -> None:
        """Leave nothing running and nothing to warn about, even after a failure."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for d in self.worlds:
                with contextlib.suppress(Exception):
                    d.backend.sync_all()
            for x in self.xfers:
                if not x.completed and not x.dropped:
                    for real in x.real:
                        with contextlib.suppress(Exception):
                            real.wait()
            for r in self.runs:
                for real in r.real:
                    with contextlib.suppress(Exception):
                        real.wait()
            for mp in self.maps:
                for real in mp.real:
                    with contextlib.suppress(Exception):
                        real.wait()
            for pool in self.pools:
                for real in pool.real:
                    with contextlib.suppress(Exception):
                        real.drain()
            for sc in self.scopes:
                for scope in sc.scopes:
                    with contextlib.suppress(Exception):
                        scope.__exit__(None, None, None)
            self.xfers.clear()
            self.runs.clear()
            self.maps.clear()
            self.lends.clear()
            gc.collect()
        _backend._current = self.previous_backend


#: CI: deterministic and bounded (the same programs every run), within a minute on one core.
CI_PATTERNS = settings(CI, max_examples=200, stateful_step_count=50)
#: ``NUMBAXFER_PROPERTY_PROFILE=thorough``: many more programs, random each run.
THOROUGH_PATTERNS = settings(THOROUGH, max_examples=1500, stateful_step_count=50)
