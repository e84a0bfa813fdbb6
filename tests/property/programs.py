"""Random programs over numbaxfer's public API, run on the emulator and compared with
the sequential reference model (model.py).

``CheckedPrograms`` runs each generated program through numbaxfer in several worlds at
once, one emulator per world, each with its own schedule (lazy or eager, and two seeded
random interleavings). Programs allocate, write (in blocks, some left open), read,
upload, download, copy, launch kernels (plain, and with declared intents), wait (once,
or twice), poll, drop transfers, lend arrays and streams (and misuse them), free,
synchronize, state dependencies with ``wait_for``, close, on two to three streams, some
strict. After every call it checks the property:

* a call the model accepts succeeds, and every host array the program may read holds
  the model's contents (checked after every step); at the end every transfer is
  completed and every device array is read back and compared;
* a call that breaks a rule raises the model's error (exact type) at that call, in
  every world, and changes nothing: the model is not updated, so every later
  comparison checks that the data are intact.

Before its end, every program also probes every rule on the state it reached (see
``probe``), so that each rule is exercised in every program, not only when the random
walk happens to reach it.

``RawPrograms`` runs the same generator through ``RawEmulatedCuda``, numba's calls with
no ownership checks: every call the model refuses as an ownership violation runs anyway
(bad input is skipped). Under the lazy schedule it must produce a wrong result: that is
what the checked property protects against.

A failed property raises :class:`Violation`, whose ``kind`` says which part failed.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

import numpy as np
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx
from numbaxfer import _backend, _lifetime
from numbaxfer._backend._emulator import EmulatorBackend, RawEmulatedCuda, Schedule

from . import model as m
from .model import ErrorType, Handle, Xfer

N = 16  # elements per array; the second size makes shape mismatches
SIZES = (N, N, N, 8)
BLOCK = 8
# Live (not freed or orphaned) buffers and open streams at once; and allocations in all.
MAX_HOST, MAX_DEVICE, MAX_STREAMS = 4, 4, 3
MAX_MADE = 10

R = TypeVar("R")


# -- kernels (run by numba's simulator; tiny on purpose) ----------------------------------
@cuda.jit
def add_const(a: Any, c: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += c


@cuda.jit
def mix(dst: Any, src: Any) -> None:
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = dst[i] + 2.0 * src[i] + 1.0


#: ``mix`` with declared intents: it only reads ``src``, which may then be lent.
mix_declared = nx.kernel(reads=["src"], writes=["dst"])(mix)


def grid_for(n: int) -> int:
    return (n + BLOCK - 1) // BLOCK


# -- the property's failures --------------------------------------------------------------
class Violation(AssertionError):
    """The property failed: ``kind`` is "wrong result", "missing error", "wrong error"
    or "unexpected error"."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


# -- drivers: the same operations through numbaxfer or through raw numba-style calls -------
class CheckedDriver:
    """One world's numbaxfer calls, on its own emulator backend."""

    def __init__(self, backend: EmulatorBackend) -> None:
        self.backend = backend

    def _made_here(self, make: Callable[[], R]) -> R:
        previous = _backend._current
        _backend._current = self.backend
        try:
            return make()
        finally:
            _backend._current = previous

    def pinned(self, n: int) -> Any:
        return self._made_here(lambda: nx.pinned_array(n, np.float64))

    def device(self, n: int, device: int = 0) -> Any:
        return self._made_here(lambda: nx.device_array(n, np.float64, device=device))

    def stream(self, strict: bool = False, device: int = 0) -> Any:
        return self._made_here(lambda: nx.stream(strict=strict, device=device))

    def fill(self, h: Any, index: int | slice, value: Any) -> NDArray[Any]:
        """One write() block; returns its view (read-only after the block)."""
        with h.write() as a:
            a[index] = value
        view: NDArray[Any] = a
        return view

    def begin_write(self, h: Any) -> tuple[Any, NDArray[Any]]:
        scope = h.write()
        return scope, scope.__enter__()

    def end_scope(self, scope: Any) -> None:
        scope.__exit__(None, None, None)

    def read(self, h: Any) -> NDArray[Any]:
        view: NDArray[Any] = h.read()
        return view

    def lend(self, x: Any) -> tuple[Any, Any]:
        scope = x.lend()
        return scope, scope.__enter__()

    def upload(self, s: Any, h: Any, d: Any) -> Any:
        return s.upload(h, to=d)

    def download(self, s: Any, d: Any, h: Any) -> Any:
        return s.download(d, into=h)

    def copy(self, s: Any, src: Any, dst: Any) -> Any:
        return s.copy(src, to=dst)

    def launch(self, s: Any, kernel: Any, n: int, args: Sequence[Any]) -> None:
        s.launch(kernel, grid_for(n), BLOCK, *args)

    def wait(self, t: Any) -> Any:
        return t.wait()

    def done(self, t: Any) -> bool:
        return bool(t.done())

    def synchronize(self, s: Any) -> None:
        s.synchronize()

    def wait_for(self, s: Any, other: Any) -> None:
        s.wait_for(other)

    def close(self, s: Any) -> None:
        s.close()

    def free(self, x: Any) -> None:
        x.free()

    def upload_pageable(self, s: Any, d: Any, n: int) -> Any:
        return s.upload(np.zeros(n), to=d)

    def download_pageable(self, s: Any, d: Any, n: int) -> Any:
        return s.download(d, into=np.zeros(n))

    def launch_host(self, s: Any, h: Any, n: int) -> None:
        s.launch(add_const, grid_for(n), BLOCK, h, 1.0)

    def contents(self, d: Any, n: int) -> NDArray[Any]:
        """Read a device array back through the public API, on a stream of its own."""
        s = self.stream(device=d.device)
        out = s.download(d, into=self.pinned(n)).wait()
        s.close()
        return np.array(out.read())


class RawTransfer:
    """numba style: an event recorded after the copy, and the host array it touches."""

    def __init__(self, event: Any, host: Any) -> None:
        self.event = event
        self.host = host


class RawDriver:
    """One world's numba-style calls through RawEmulatedCuda: nothing is checked."""

    def __init__(self, backend: EmulatorBackend) -> None:
        self.backend = backend
        self.cuda = RawEmulatedCuda(backend)

    def pinned(self, n: int) -> Any:
        return self.cuda.pinned_array(n, np.float64)

    def device(self, n: int, device: int = 0) -> Any:
        return self.cuda.device_array(n, np.float64)  # raw: one device; placement unchecked

    def stream(self, strict: bool = False, device: int = 0) -> Any:
        return self.cuda.stream()

    def fill(self, h: Any, index: int | slice, value: Any) -> NDArray[Any]:
        h[index] = value
        view: NDArray[Any] = h
        return view

    def begin_write(self, h: Any) -> tuple[Any, NDArray[Any]]:
        return None, h

    def end_scope(self, scope: Any) -> None:
        pass

    def read(self, h: Any) -> NDArray[Any]:
        return np.array(h)

    def lend(self, x: Any) -> tuple[Any, Any]:
        return None, x

    def _recorded(self, s: Any, host: Any) -> RawTransfer:
        event = self.cuda.event()
        event.record(s)
        return RawTransfer(event, host)

    def upload(self, s: Any, h: Any, d: Any) -> Any:
        d.copy_to_device(h, stream=s)
        return self._recorded(s, h)

    def download(self, s: Any, d: Any, h: Any) -> Any:
        d.copy_to_host(h, stream=s)
        return self._recorded(s, h)

    def copy(self, s: Any, src: Any, dst: Any) -> Any:
        dst.copy_to_device(src, stream=s)
        return self._recorded(s, None)

    def launch(self, s: Any, kernel: Any, n: int, args: Sequence[Any]) -> None:
        dispatcher = getattr(kernel, "dispatcher", kernel)  # intents mean nothing here
        self.cuda.kernel(dispatcher)[grid_for(n), BLOCK, s](*args)

    def wait(self, t: Any) -> Any:
        t.event.synchronize()
        return t.host

    def done(self, t: Any) -> bool:
        return bool(t.event.query())

    def synchronize(self, s: Any) -> None:
        s.synchronize()

    def wait_for(self, s: Any, other: Any) -> None:
        event = self.cuda.event()  # numba: record on the other stream, wait on this one
        event.record(other)
        event.wait(s)

    def close(self, s: Any) -> None:
        pass  # numba streams are not closed; their work runs on

    def free(self, x: Any) -> None:
        pass

    def upload_pageable(self, s: Any, d: Any, n: int) -> Any:
        raise AssertionError("bad input is not run in raw mode")

    download_pageable = upload_pageable

    def launch_host(self, s: Any, h: Any, n: int) -> None:
        raise AssertionError("bad input is not run in raw mode")

    def contents(self, d: Any, n: int) -> NDArray[Any]:
        return np.array(d.copy_to_host())  # the default stream: after all work


Driver = CheckedDriver | RawDriver


# -- hypothesis settings -----------------------------------------------------------------
#: Deterministic and bounded, for CI: the same programs every run, no example database.
CI = settings(
    max_examples=150,
    stateful_step_count=40,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: ``NUMBAXFER_PROPERTY_PROFILE=thorough``: many more programs, random each run (about
#: a quarter of an hour); a failure prints the blob for ``@reproduce_failure``.
THOROUGH = settings(
    CI, max_examples=2000, stateful_step_count=60, derandomize=False, print_blob=True
)
#: Looking for a failure we know is there: stop at the first, do not shrink it.
HUNT = settings(CI, max_examples=400, phases=(Phase.generate,), report_multiple_bugs=False)

SEEDS = st.integers(0, 2**32 - 1)
INDEX = st.integers(0, 15)
#: 0: any handle ever made; 1: a dead one (a lent handle after its block, an owner
#: handle after wait() gave a new one); otherwise one the program would name now.
WHO = st.integers(0, 6)
#: Destructive calls (drop, free, close) run when this draws 0: a program that frees or
#: closes everything early tests little after that.
RARELY = st.integers(0, 2)
#: What to do right after a call, to reach rule-breaking patterns in a few steps: None
#: (nothing, most of the time) or which misuse to try.
THEN = st.one_of(st.none(), st.none(), st.integers(0, 5))
ELEMENT = st.one_of(st.none(), st.integers(0, N - 1))  # None: the whole array
#: Devices per emulated host, and where a new stream or device array goes (device 0
#: twice as often: most work stays on one device, some crosses).
DEVICES = 2
PLACE = st.sampled_from([0, 0, 1])


class Programs(RuleBasedStateMachine):
    """The program generator and the property (see the module docstring)."""

    RAW: ClassVar[bool] = False
    #: Programs started, over all instances of this class (for the teeth reports).
    started: ClassVar[int] = 0

    def __init__(self) -> None:
        super().__init__()
        type(self).started += 1
        self.worlds: list[Driver] = []
        self.hosts: list[Handle] = []  # every host handle ever made
        self.devices: list[Handle] = []
        self.streams: list[Handle] = []
        self.host_bufs: list[m.Buffer] = []
        self.dev_bufs: list[m.Buffer] = []
        self.cores: list[m.Core] = []
        self.xfers: list[Xfer] = []
        self.lends: list[tuple[Handle, Handle, list[Any]]] = []  # owner, view, scopes
        self.expired: list[Handle] = []  # lent handles whose block has ended
        self.writes: list[tuple[Handle, list[Any], list[NDArray[Any]]]] = []
        # Views that must be read-only: write() views after their block, read() views.
        self.sealed: dict[str, list[list[NDArray[Any]]]] = {"write": [], "read": []}
        self.counter = 0
        self.clock = m.Clock()
        self.previous_backend = _backend._current

    # -- worlds and schedules ------------------------------------------------------------
    def schedules(self, first: str, seed1: int, seed2: int) -> list[Schedule]:
        if self.RAW:
            return [Schedule("lazy")]
        return [Schedule(first), Schedule.random(seed1), Schedule.random(seed2)]

    @initialize(
        first=st.sampled_from(["lazy", "eager"]),
        seed1=SEEDS,
        seed2=SEEDS,
        strict=st.sampled_from([False, False, True]),
        placement=st.sampled_from([(0, 0), (0, 1), (1, 0), (1, 1)]),
    )
    def start(
        self, first: str, seed1: int, seed2: int, strict: bool, placement: tuple[int, int]
    ) -> None:
        """Worlds, two streams (the second strict in a third of the programs), two host
        and two device arrays; the second stream and device array on ``placement``'s
        devices. Each world's emulator has two devices, with peer access in alternate
        worlds (copies between devices take the peer route in one, staged in the next)."""
        for w, schedule in enumerate(self.schedules(first, seed1, seed2)):
            backend = EmulatorBackend(schedule, devices=DEVICES, peer=w % 2 == 0)
            self.worlds.append(RawDriver(backend) if self.RAW else CheckedDriver(backend))
        for k in range(2):
            self.new_stream(strict and k == 1, placement[0] if k else 0)
            self.new_host(N)
            self.new_device(N, placement[1] if k else 0)

    def value(self) -> float:
        self.counter += 1
        return float(1_000_000 + self.counter)

    # -- running one call in every world ---------------------------------------------------
    def run(self, errs: list[ErrorType], what: str, call: Callable[[Driver, int], R]) -> list[R]:
        """Run ``call`` in every world and check it against the model's ``errs``.

        Returns the per-world results when the call is expected to succeed, and [] when
        it is expected to fail (it did, with the right error) or was skipped (raw mode:
        bad input)."""
        if self.RAW:
            if m.is_bad_input(errs):
                return []
            return [call(d, w) for w, d in enumerate(self.worlds)]
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

    def same(self, what: str, actual: NDArray[Any], expected: NDArray[Any], w: int) -> None:
        if not np.array_equal(actual, expected):
            driver = self.worlds[w]
            raise Violation(
                "wrong result",
                f"{what} in world {w} ({driver.backend.describe()}): "
                f"got {np.asarray(actual).tolist()}, expected {expected.tolist()}",
            )

    # -- picking handles -------------------------------------------------------------------
    def everyone(self, kind: str) -> list[Handle]:
        return {"host": self.hosts, "device": self.devices, "stream": self.streams}[kind]

    def current(self, kind: str) -> list[Handle]:
        """The handles a program would name now: each buffer's newest owner handle
        (moved or not), each stream's owner, and the live lent handles."""
        if kind == "stream":
            owners = [h for h in self.streams if h.owner is None]
        else:
            bufs = self.host_bufs if kind == "host" else self.dev_bufs
            owners = [b.current for b in bufs if b.current is not None]
        return owners + [v for _, v, _ in self.lends if v.kind == kind]

    def dead(self, kind: str) -> list[Handle]:
        now = self.current(kind)
        return [h for h in self.everyone(kind) if h not in now]

    def pick(self, kind: str, i: int, who: int) -> Handle | None:
        pool = self.everyone(kind) if who == 0 else self.current(kind)
        if who == 1:
            pool = self.dead(kind) or pool
        return pool[i % len(pool)] if pool else None

    def pick_xfer(self, i: int, who: int) -> Xfer | None:
        pool = [t for t in self.xfers if not t.dropped and (who == 0 or not t.completed)]
        return pool[i % len(pool)] if pool else None

    # -- allocation ------------------------------------------------------------------------
    @rule(size=st.sampled_from(SIZES))
    def new_host(self, size: int) -> None:
        live = [b for b in self.host_bufs if not (b.freed or b.orphaned)]
        if len(live) < MAX_HOST and len(self.host_bufs) < MAX_MADE:
            self.make_host(size)

    def make_host(self, size: int) -> Handle:
        k = len(self.host_bufs)
        data = np.arange(size, dtype=np.float64) + 1000.0 * (k + 1)
        real = [d.pinned(size) for d in self.worlds]
        views = [d.fill(h, slice(None), data) for d, h in zip(self.worlds, real, strict=True)]
        if not self.RAW:
            self.sealed["write"].append(views)
        buf = m.Buffer(f"host{k}", data.copy())
        h = Handle("host", f"host{k}", m.Flag(), real, buf=buf)
        buf.current = h
        self.host_bufs.append(buf)
        self.hosts.append(h)
        return h

    @rule(size=st.sampled_from(SIZES), device=PLACE)
    def new_device(self, size: int, device: int = 0) -> None:
        live = [b for b in self.dev_bufs if not b.freed]
        if len(live) < MAX_DEVICE and len(self.dev_bufs) < MAX_MADE:
            self.make_device(size, device)

    def make_device(self, size: int, device: int = 0) -> Handle:
        k = len(self.dev_bufs)
        name = f"dev{k}" + (f"@{device}" if device else "")
        buf = m.Buffer(name, np.zeros(size), device=device)
        real = [d.device(size, device) for d in self.worlds]
        h = Handle("device", name, m.Flag(), real, buf=buf)
        buf.current = h
        self.dev_bufs.append(buf)
        self.devices.append(h)
        return h

    @rule(strict=st.sampled_from([False, False, True]), device=PLACE)
    def new_stream(self, strict: bool = False, device: int = 0) -> None:
        live = [c for c in self.cores if not c.closed]
        if len(live) < MAX_STREAMS and len(self.cores) < MAX_MADE:
            self.make_stream(strict, device)

    def make_stream(self, strict: bool, device: int = 0) -> Handle:
        name = (
            f"s{len(self.cores)}"
            + ("(strict)" if strict else "")
            + (f"@{device}" if device else "")
        )
        core = m.Core(name, strict, device=device)
        self.cores.append(core)
        real = [d.stream(strict, device) for d in self.worlds]
        h = Handle("stream", core.name, m.Flag(), real, core=core)
        self.streams.append(h)
        return h

    # -- the operations: check against the model, run in every world, update the model ---
    def do_write(self, h: Handle, element: int | None, keep_open: bool) -> None:
        """A write() block; or, keep_open, one left open (write_in_block and end_write
        use it, and every other call on the array meanwhile is refused)."""
        assert h.buf is not None
        errs = m.errors(h.flag.exclusive())
        if keep_open and not self.RAW:
            opened = self.run(errs, f"open write {h}", lambda d, w: d.begin_write(h.real[w]))
            if opened:
                h.flag.mode = m.WRITING
                self.writes.append((h, [s for s, _ in opened], [v for _, v in opened]))
            return
        index: int | slice = slice(None) if element is None else element % h.buf.data.size
        v = self.value()
        views = self.run(errs, f"write {h}", lambda d, w: d.fill(h.real[w], index, v))
        if views:
            h.buf.data[index] = v
            if not self.RAW:
                self.sealed["write"].append(views)

    def do_read(self, h: Handle) -> None:
        assert h.buf is not None
        data = h.buf.data
        views = self.run(m.errors(h.flag.readable()), f"read {h}", lambda d, w: d.read(h.real[w]))
        for w, view in enumerate(views):
            self.same(f"read {h}", view, data, w)
        if views and not self.RAW:
            self.sealed["read"].append(views)

    def do_lend(self, x: Handle) -> None:
        lent = self.run(m.errors(x.flag.readable()), f"lend {x}", lambda d, w: d.lend(x.real[w]))
        if not lent:
            return
        flag = m.Flag(read_only=True)
        view = Handle(
            x.kind, f"{x.name}.lent", flag, [v for _, v in lent], buf=x.buf, core=x.core, owner=x
        )
        x.flag.lends += 1
        self.lends.append((x, view, [s for s, _ in lent]))
        self.everyone(x.kind).append(view)

    def do_upload(self, s: Handle, h: Handle, dv: Handle) -> None:
        assert h.buf is not None and dv.buf is not None
        real = self.run(
            m.upload(s, h, dv),
            f"{s}.upload({h}, to={dv})",
            lambda d, w: d.upload(s.real[w], h.real[w], dv.real[w]),
        )
        if real:
            dv.buf.data = h.buf.data.copy()
            m.ordered(self.clock, s, [(dv, True)])
            self.start_xfer("upload", s, real, h)

    def do_download(self, s: Handle, dv: Handle, h: Handle) -> None:
        assert h.buf is not None and dv.buf is not None
        real = self.run(
            m.download(s, dv, h),
            f"{s}.download({dv}, into={h})",
            lambda d, w: d.download(s.real[w], dv.real[w], h.real[w]),
        )
        if real:
            h.buf.data = dv.buf.data.copy()
            m.ordered(self.clock, s, [(dv, False)])
            self.start_xfer("download", s, real, h)

    def do_copy(self, s: Handle, src: Handle, dst: Handle) -> None:
        assert src.buf is not None and dst.buf is not None
        uses = [(src, False), (dst, True)]
        errs = m.copy(s, src, dst)
        real = self.run(
            errs,
            f"{s}.copy({src}, to={dst})",
            lambda d, w: d.copy(s.real[w], src.real[w], dst.real[w]),
        )
        if real:
            dst.buf.data = src.buf.data.copy()
            m.ordered(self.clock, s, uses)
            self.start_xfer("copy", s, real, None)

    def do_launch_add(self, s: Handle, dv: Handle, c: float) -> None:
        assert dv.buf is not None
        n = dv.buf.data.size
        if self.run(
            m.launch(s, [(dv, True)]),
            f"{s}.launch(add_const, {dv}, {c})",
            lambda d, w: d.launch(s.real[w], add_const, n, [dv.real[w], c]),
        ):
            dv.buf.data = m.add_const(dv.buf.data, c)
            m.ordered(self.clock, s, [(dv, True)])

    def do_launch_mix(self, s: Handle, dst: Handle, src: Handle, declared: bool) -> None:
        """mix(dst, src): a plain kernel (both arguments written) or one with declared
        intents (src only read: it may be lent)."""
        assert dst.buf is not None and src.buf is not None
        n = dst.buf.data.size
        kernel = mix_declared if declared else mix
        uses = [(dst, True), (src, not declared)]
        errs = m.launch(s, uses)
        if self.run(
            errs,
            f"{s}.launch({'mix_declared' if declared else 'mix'}, {dst}, {src})",
            lambda d, w: d.launch(s.real[w], kernel, n, [dst.real[w], src.real[w]]),
        ):
            dst.buf.data = m.mix(dst.buf.data, src.buf.data)
            m.ordered(self.clock, s, uses)

    def do_wait_for(self, s: Handle, other: Handle) -> None:
        if self.run(
            m.errors(m.stream_open(s)),
            f"{s}.wait_for({other})",
            lambda d, w: d.wait_for(s.real[w], other.real[w]),
        ):
            m.wait_for(self.clock, s, other)

    def do_free(self, x: Handle) -> None:
        assert x.buf is not None
        if self.run(m.errors(x.flag.exclusive()), f"free {x}", lambda d, w: d.free(x.real[w])):
            x.flag.mode = m.MOVED
            x.buf.freed = True

    def do_close(self, s: Handle) -> None:
        assert s.core is not None
        if self.run(m.close(s), f"{s}.close()", lambda d, w: d.close(s.real[w])):
            s.core.closed = True

    def start_xfer(self, kind: str, s: Handle, real: list[Any], host: Handle | None) -> None:
        assert s.core is not None
        t = Xfer(kind, f"{kind}{len(self.xfers)}", s.core, real)
        if host is not None:
            host.flag.mode = m.MOVED
            t.moved = host
            s.core.pending.append(t)
        self.xfers.append(t)

    def complete(self, x: Xfer) -> None:
        returned = self.run(m.wait(x), f"wait {x}", lambda d, w: d.wait(x.real[w]))
        if not returned:
            return
        x.completed = True
        if x in x.core.pending:
            x.core.pending.remove(x)
        if x.moved is None:
            if not self.RAW and any(r is not None for r in returned):
                raise Violation("wrong result", f"wait {x} of a device copy returned {returned}")
            return
        old = x.moved
        assert old.buf is not None
        if not self.RAW and any(r is old.real[w] for w, r in enumerate(returned)):
            raise Violation("wrong result", f"wait {x} returned the moved handle itself")
        new = Handle("host", f"{old.buf.name}'", m.Flag(), returned, buf=old.buf)
        if old.buf.current is old:
            old.buf.current = new
        self.hosts.append(new)

    # -- rules: host access ----------------------------------------------------------------
    @rule(
        i=INDEX,
        who=WHO,
        element=ELEMENT,
        keep_open=st.sampled_from([False, False, True]),
        then=THEN,
    )
    def write(
        self, i: int, who: int, element: int | None, keep_open: bool, then: int | None
    ) -> None:
        """then: write through the block's view after the block; or, with the block
        kept open, write or move the array through the handle meanwhile."""
        h = self.pick("host", i, who)
        if h is None:
            return
        self.do_write(h, element, keep_open)
        if then is not None:
            if not keep_open:
                self.write_through_old_view("write", -1, then)
            elif self.writes and self.writes[-1][0] is h:
                self.misuse(h, then)

    @rule(k=INDEX, element=ELEMENT)
    def write_in_block(self, k: int, element: int | None) -> None:
        if not self.writes:
            return
        h, _, views = self.writes[k % len(self.writes)]
        assert h.buf is not None
        index: int | slice = slice(None) if element is None else element % h.buf.data.size
        v = self.value()
        for view in views:
            view[index] = v
        h.buf.data[index] = v

    @rule(k=INDEX)
    def end_write(self, k: int) -> None:
        if not self.writes:
            return
        h, scopes, views = self.writes.pop(k % len(self.writes))
        for d, scope in zip(self.worlds, scopes, strict=True):
            d.end_scope(scope)
        if h.flag.mode == m.WRITING:
            h.flag.mode = m.FREE
        self.sealed["write"].append(views)

    @rule(i=INDEX, who=WHO, then=THEN)
    def read(self, i: int, who: int, then: int | None) -> None:
        """then: write through the read() view."""
        h = self.pick("host", i, who)
        if h is None:
            return
        self.do_read(h)
        if then is not None:
            self.write_through_old_view("read", -1, then)

    @rule(which=st.sampled_from(["write", "read"]), k=INDEX, element=st.integers(0, N - 1))
    def write_through_old_view(self, which: str, k: int, element: int) -> None:
        """A write() view after its block, or a read() view: numpy refuses the write."""
        old = self.sealed[which]
        if not old:
            return
        views = old[k % len(old)]

        def poke(d: Driver, w: int) -> None:
            view = views[w]
            view[element % view.size] = -1.0

        self.run([ValueError], "write through an old view", poke)

    # -- rules: lends ----------------------------------------------------------------------
    @rule(
        kind=st.sampled_from(["host", "device", "stream"]),
        i=INDEX,
        who=WHO,
        then=THEN,
        owner=st.booleans(),
    )
    def lend(self, kind: str, i: int, who: int, then: int | None, owner: bool) -> None:
        """then: misuse the lent handle (or, owner, the owner) while the lend lives."""
        x = self.pick(kind, i, who)
        if x is None:
            return
        self.do_lend(x)
        if then is not None and self.lends and self.lends[-1][0] is x:
            self.misuse(x if owner else self.lends[-1][1], then)

    @rule(k=INDEX, then=THEN)
    def end_lend(self, k: int, then: int | None) -> None:
        """then: use the lent handle after its block."""
        if not self.lends:
            return
        owner, view, scopes = self.lends.pop(k % len(self.lends))
        for d, scope in zip(self.worlds, scopes, strict=True):
            d.end_scope(scope)
        view.flag.mode = m.EXPIRED
        owner.flag.lends -= 1
        self.expired.append(view)
        if then is not None:
            self.use_expired(-1, then)

    @rule(k=INDEX, what=st.integers(0, 5), owner=st.booleans())
    def misuse_lend(self, k: int, what: int, owner: bool) -> None:
        """What a lend forbids: write or move through the lent handle (read-only), or,
        owner, through the owner while the lend lives (rule 3)."""
        if not self.lends:
            return
        lender, view, _ = self.lends[k % len(self.lends)]
        self.misuse(lender if owner else view, what)

    @rule(k=INDEX, what=st.integers(0, 5))
    def use_expired(self, k: int, what: int) -> None:
        """A lent handle after its block: every use is refused (rule 3)."""
        if self.expired:
            self.use_dead(self.expired[k % len(self.expired)], what)

    def use_dead(self, x: Handle, what: int) -> None:
        if x.kind == "host" and what % 3 == 0:
            self.do_read(x)
        elif x.kind == "device" and what % 3 == 0:
            self.do_copy(self.partner("stream"), x, x)
        else:
            self.misuse(x, what)

    def partner(self, kind: str) -> Handle:
        """A handle to use beside the one under test, usable if the program has one: an
        open non-strict stream, an owned array that is neither moved, lent nor freed."""
        if kind == "stream":
            pool = [h for h in self.streams if h.owner is None and h.core is not None]
            good = [h for h in pool if h.core is not None and not h.core.closed]
            good = [h for h in good if h.core is not None and not h.core.strict] or good
        else:
            pool = self.current(kind)
            good = [
                h
                for h in pool
                if h.owner is None and h.flag.mode == m.FREE and not h.flag.lends
                if h.buf is not None and h.buf.data.shape == (N,) and not h.buf.orphaned
            ]
        return (good or pool)[0]

    def misuse(self, x: Handle, what: int) -> None:
        """A call that writes or moves ``x``, chosen by ``what``."""
        s = self.partner("stream")
        if x.kind == "host":
            dv = self.partner("device")
            calls = [
                lambda: self.do_write(x, None, False),
                lambda: self.do_upload(s, x, dv),
                lambda: self.do_download(s, dv, x),
                lambda: self.do_free(x),
                lambda: self.do_lend(x),
            ]
        elif x.kind == "device":
            h = self.partner("host")
            calls = [
                lambda: self.do_upload(s, h, x),
                lambda: self.do_copy(s, x, x),
                lambda: self.do_launch_add(s, x, 1.0),
                lambda: self.do_launch_mix(s, x, x, True),
                lambda: self.do_free(x),
            ]
        else:
            dv = self.partner("device")
            other = s
            calls = [
                lambda: self.do_close(x),
                lambda: self.do_launch_add(x, dv, 1.0),
                lambda: self.do_wait_for(x, other),
            ]
        calls[what % len(calls)]()

    # -- rules: transfers and kernels ----------------------------------------------------------
    @rule(s=INDEX, i=INDEX, j=INDEX, who=WHO)
    def upload(self, s: int, i: int, j: int, who: int) -> None:
        st_, h, dv = self.pick("stream", s, 1), self.pick("host", i, who), self.pick("device", j, 1)
        if st_ is not None and h is not None and dv is not None:
            self.do_upload(st_, h, dv)

    @rule(s=INDEX, i=INDEX, j=INDEX, who=WHO)
    def download(self, s: int, i: int, j: int, who: int) -> None:
        st_, dv, h = self.pick("stream", s, 1), self.pick("device", j, 1), self.pick("host", i, who)
        if st_ is not None and h is not None and dv is not None:
            self.do_download(st_, dv, h)

    @rule(s=INDEX, i=INDEX, j=INDEX, who=WHO)
    def copy(self, s: int, i: int, j: int, who: int) -> None:
        st_ = self.pick("stream", s, 1)
        src, dst = self.pick("device", i, who), self.pick("device", j, 1)
        if st_ is not None and src is not None and dst is not None:
            self.do_copy(st_, src, dst)

    @rule(s=INDEX, i=INDEX, who=WHO, c=st.sampled_from([1.0, 2.0, 3.0]))
    def launch_add(self, s: int, i: int, who: int, c: float) -> None:
        st_, dv = self.pick("stream", s, who), self.pick("device", i, 1)
        if st_ is not None and dv is not None:
            self.do_launch_add(st_, dv, c)

    @rule(s=INDEX, i=INDEX, j=INDEX, who=WHO, declared=st.booleans())
    def launch_mix(self, s: int, i: int, j: int, who: int, declared: bool) -> None:
        st_, dst = self.pick("stream", s, 1), self.pick("device", i, 1)
        if st_ is None or dst is None:
            return
        pool = self.everyone("device") if who == 0 else self.current("device")
        same_size = [x for x in pool if x.shape == dst.shape]
        src = same_size[j % len(same_size)] if same_size else dst
        self.do_launch_mix(st_, dst, src, declared)

    @rule(t=INDEX, who=WHO, again=st.sampled_from([False, False, True]))
    def wait(self, t: int, who: int, again: bool) -> None:
        """again: complete the same transfer a second time."""
        x = self.pick_xfer(t, who)
        if x is None:
            return
        self.complete(x)
        if again and not x.dropped:
            self.complete(x)

    @rule(t=INDEX, who=WHO)
    def done(self, t: int, who: int) -> None:
        x = self.pick_xfer(t, who)
        if x is None:
            return
        answers = self.run([], f"done {x}", lambda d, w: d.done(x.real[w]))
        if x.completed and not all(answers):
            raise Violation("wrong result", f"done() of completed {x} answered {answers}")

    @rule(t=INDEX, rarely=RARELY)
    def drop(self, t: int, rarely: int) -> None:
        """Drop an unfinished upload or download: a ResourceWarning, and no handle back."""
        if rarely:
            return
        pool = [x for x in self.xfers if x.moved is not None and not x.completed and not x.dropped]
        if not pool:
            return
        x = pool[t % len(pool)]
        x.dropped = True
        x.core.pending.remove(x)
        assert x.moved is not None and x.moved.buf is not None
        x.moved.buf.orphaned = True
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x.real.clear()
            gc.collect()
        if self.RAW:
            return
        got = sum(issubclass(c.category, ResourceWarning) for c in caught)
        if got != len(self.worlds):
            raise Violation(
                "missing error", f"dropping {x} gave {got} ResourceWarning(s), not one per world"
            )

    # -- rules: streams, freeing -------------------------------------------------------------
    @rule(s=INDEX, who=WHO)
    def synchronize(self, s: int, who: int) -> None:
        st_ = self.pick("stream", s, who)
        if st_ is not None:
            self.run(
                m.errors(m.stream_open(st_)),
                f"{st_}.synchronize()",
                lambda d, w: d.synchronize(st_.real[w]),
            )

    @rule(s=INDEX, o=INDEX, who=WHO)
    def wait_for(self, s: int, o: int, who: int) -> None:
        """An explicit cross-stream dependency (what a strict stream needs)."""
        st_, other = self.pick("stream", s, 1), self.pick("stream", o, who)
        if st_ is not None and other is not None:
            self.do_wait_for(st_, other)

    @rule(s=INDEX, who=WHO, rarely=RARELY)
    def close(self, s: int, who: int, rarely: int) -> None:
        st_ = self.pick("stream", s, who)
        if st_ is not None and not rarely:
            self.do_close(st_)

    @rule(k=INDEX)
    def close_busy(self, k: int) -> None:
        """Close a stream whose transfers are not all completed."""
        busy = [h for h in self.streams if h.core is not None and h.core.pending]
        if busy:
            self.do_close(busy[k % len(busy)])

    @rule(kind=st.sampled_from(["host", "device"]), i=INDEX, who=WHO, rarely=RARELY)
    def free(self, kind: str, i: int, who: int, rarely: int) -> None:
        x = self.pick(kind, i, who)
        if x is not None and not rarely:
            self.do_free(x)

    # -- rules: bad input (rule 6) -------------------------------------------------------------
    @rule(s=INDEX, i=INDEX, what=st.sampled_from(["upload", "download", "launch"]))
    def bad_input(self, s: int, i: int, what: str) -> None:
        """Numpy memory handed to a copy (PageableMemoryError), host memory to a kernel."""
        st_ = self.pick("stream", s, 1)
        x = self.pick("host" if what == "launch" else "device", i, 1)
        if st_ is None or x is None or x.buf is None:
            return
        n = x.buf.data.size
        if what == "launch":
            errs = m.errors(m.stream_open(st_), TypeError)
            self.run(
                errs,
                f"{st_}.launch(add_const, {x})",
                lambda d, w: d.launch_host(st_.real[w], x.real[w], n),
            )
            return
        # A download checks its device array's placement before its host memory.
        placed = m.placed(st_, x) if what == "download" else None
        errs = m.errors(m.stream_open(st_), placed, nx.PageableMemoryError)
        if what == "upload":
            self.run(
                errs,
                "upload from numpy",
                lambda d, w: d.upload_pageable(st_.real[w], x.real[w], n),
            )
        else:
            self.run(
                errs,
                "download into numpy",
                lambda d, w: d.download_pageable(st_.real[w], x.real[w], n),
            )

    # -- across devices ------------------------------------------------------------------------
    @rule(i=INDEX, j=INDEX, k=INDEX, on_src=st.booleans())
    def across_devices(self, i: int, j: int, k: int, on_src: bool) -> None:
        """A copy between devices, on a stream of the source's or the destination's
        device; then the destination downloaded on another stream of its device. A lost
        cross-device ordering shows as stale data (the random walk reaches this rarely)."""
        devs = [h for h in self.current("device") if h.buf is not None]
        if not devs:
            return
        src = devs[i % len(devs)]
        assert src.buf is not None
        dsts = [
            h
            for h in devs
            if h.buf is not None
            and h.buf.device != src.buf.device
            and h.buf.data.shape == src.buf.data.shape
        ]
        if not dsts:
            return
        dst = dsts[j % len(dsts)]
        assert dst.buf is not None
        on = src.buf.device if on_src else dst.buf.device
        streams = [h for h in self.current("stream") if h.core is not None and h.core.device == on]
        if not streams:
            return
        s = streams[k % len(streams)]
        self.do_copy(s, src, dst)
        readers = [
            h
            for h in self.current("stream")
            if h.core is not None and h.core.device == dst.buf.device and h.core is not s.core
        ]
        hosts = [
            h
            for h in self.current("host")
            if h.buf is not None and h.flag.mode == m.FREE and h.buf.data.shape == dst.shape
        ]
        if readers and hosts:
            self.do_download(readers[k % len(readers)], dst, hosts[i % len(hosts)])

    # -- the most common calls, twice as likely ------------------------------------------------
    @rule(s=INDEX, i=INDEX, j=INDEX, who=WHO)
    def upload_(self, s: int, i: int, j: int, who: int) -> None:
        self.upload(s, i, j, who)

    @rule(s=INDEX, i=INDEX, j=INDEX, who=WHO)
    def download_(self, s: int, i: int, j: int, who: int) -> None:
        self.download(s, i, j, who)

    @rule(t=INDEX, who=WHO)
    def wait_(self, t: int, who: int) -> None:
        self.wait(t, who, False)

    @rule(i=INDEX, who=WHO, element=ELEMENT)
    def write_(self, i: int, who: int, element: int | None) -> None:
        self.write(i, who, element, False, None)

    # -- the property at every step ----------------------------------------------------------
    @invariant()
    def readable_host_arrays_hold_the_model(self) -> None:
        if self.RAW:
            return  # raw programs are checked where they read, and at the end
        for buf in self.host_bufs:
            h = buf.current
            if h is not None and h.flag.mode == m.FREE:
                self.check_host(h, "between calls")

    def check_host(self, h: Handle, when: str) -> None:
        assert h.buf is not None
        data = h.buf.data
        views = self.run([], f"{h}.read() {when}", lambda d, w: d.read(h.real[w]))
        for w, view in enumerate(views):
            self.same(f"{h}.read() {when}", view, data, w)

    # -- the end of a program ------------------------------------------------------------------
    def teardown(self) -> None:
        failing = sys.exc_info()[0] is not None
        try:
            if not failing and self.worlds:
                self.finish()
        finally:
            self.clean_up()

    def finish(self) -> None:
        """Probe every rule on the final state, complete everything, then compare every
        host and device array with the model."""
        if not self.RAW:
            self.probe()
        while self.writes:
            self.end_write(0)
        while self.lends:
            self.end_lend(len(self.lends) - 1, None)
        for x in [x for x in self.xfers if not x.completed and not x.dropped]:
            self.complete(x)
        if self.RAW:
            for d in self.worlds:
                d.backend.sync_all()
        for buf in self.host_bufs:
            h = buf.current
            if h is None or buf.freed or (buf.orphaned and not self.RAW):
                continue
            self.check_host(h, "at the end")
        for buf in self.dev_bufs:
            dv = buf.current
            if dv is None or buf.freed:
                continue
            for w, d in enumerate(self.worlds):
                got = d.contents(dv.real[w], buf.data.size)
                self.same(f"{dv} at the end", got, buf.data, w)
        for s in self.streams:
            if s.owner is None and s.core is not None and not s.core.closed:
                self.do_close(s)

    def probe(self) -> None:
        """Every rule, tried on what the program left: each open write block and each
        lend (lent handle and owner) is misused every way, busy streams are closed,
        completed transfers waited again, old views written through, dead handles read,
        and each lent handle used again after its block."""
        self.make_stream(False)  # partners that are certainly usable
        self.make_host(N)
        self.make_device(N)
        for h, _, _ in list(self.writes):
            for what in range(5):
                self.misuse(h, what)
        for owner, view, _ in list(self.lends):
            for what in range(5):
                self.misuse(view, what)
                self.misuse(owner, what)
        for s in [h for h in self.streams if h.core is not None and h.core.pending]:
            self.do_close(s)
        for t in [t for t in self.xfers if t.completed and not t.dropped]:
            self.complete(t)
        for which in ("write", "read"):
            for k in range(-3, 0):
                self.write_through_old_view(which, k, 0)
        for h in self.dead("host"):
            self.do_read(h)
        while self.writes:
            self.end_write(0)
        while self.lends:
            self.end_lend(len(self.lends) - 1, None)
        for ghost in list(self.expired):
            for what in range(6):
                self.use_dead(ghost, what)

    def clean_up(self) -> None:
        """Leave nothing running and nothing to warn about, even after a failure."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for d in self.worlds:
                with contextlib.suppress(Exception):  # a failed program leaves broken work
                    d.backend.sync_all()
            for x in self.xfers:
                for real in x.real:
                    if not self.RAW and not x.completed:
                        with contextlib.suppress(Exception):
                            real.wait()
            self.xfers.clear()
            self.lends.clear()
            self.writes.clear()
            gc.collect()
            _lifetime.reap_orphans()
        _backend._current = self.previous_backend


class CheckedPrograms(Programs):
    RAW = False


class RawPrograms(Programs):
    RAW = True
