"""Issue 10, class 1: a second owner. Nothing may duplicate a handle, construct one
from parts, or outlive the lend or pin that gave it."""

from __future__ import annotations

import copy
import gc
import pickle
import types
import warnings
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.kernels import add_one

N = 64
F32 = np.float32


def _step(s: nx.Stream[nx.Lent], a: nx.DeviceArray[nx.Owned, Any], b: Any) -> None:
    s.launch(add_one, 1, 16, a)


def _make(kind: str, stack: ExitStack) -> Any:
    """A live handle-like object of ``kind``; cleanup goes on ``stack``."""
    s = nx.stream()
    if kind == "PinnedArray":
        return nx.pinned_array(N, F32)
    if kind == "lent PinnedArray":
        return stack.enter_context(nx.pinned_array(N, F32).lend())
    if kind == "MappedArray":
        return nx.mapped_array(N, F32)
    if kind == "DeviceArray":
        return nx.device_array(N, F32)
    if kind == "lent DeviceArray":
        return stack.enter_context(nx.device_array(N, F32).lend())
    if kind == "Stream":
        return s
    if kind == "lent Stream":
        return stack.enter_context(s.lend())
    if kind == "Transfer":
        t = s.upload(nx.pinned_array(N, F32), to=nx.device_array(N, F32))
        stack.callback(t.wait)
        return t
    if kind == "Mapping":
        mp = s.map(nx.mapped_array(N, F32))
        stack.callback(mp.wait)
        return mp
    if kind == "PinnedPool":
        return nx.PinnedPool(2, N, F32)
    if kind == "Pipeline":
        pipe = nx.Pipeline(16, F32, slots=2)
        stack.callback(pipe.close)
        return pipe
    if kind == "PipelineRun":
        pipe = nx.Pipeline(16, F32, slots=2)
        run = pipe.map(nx.pinned_array(N, F32), into=nx.pinned_array(N, F32), step=_step)
        stack.callback(pipe.close)
        stack.callback(run.wait)
        return run
    if kind == "pinned scope":
        return nx.pinned(np.zeros(N, F32))
    if kind == "entered pinned scope":
        scope = nx.pinned(np.zeros(N, F32))
        stack.enter_context(scope)
        return scope
    if kind == "write scope":
        h = nx.pinned_array(N, F32)
        ws = h.write()
        stack.enter_context(ws)
        return ws
    if kind == "lend scope":
        h = nx.pinned_array(N, F32)
        ls = h.lend()
        stack.enter_context(ls)
        return ls
    raise AssertionError(kind)


KINDS = [
    "PinnedArray",
    "lent PinnedArray",
    "MappedArray",
    "DeviceArray",
    "lent DeviceArray",
    "Stream",
    "lent Stream",
    "Transfer",
    "Mapping",
    "PinnedPool",
    "Pipeline",
    "PipelineRun",
    "pinned scope",
    "entered pinned scope",
    "write scope",
    "lend scope",
]

DUPLICATORS: dict[str, Callable[[Any], object]] = {
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "pickle.dumps": pickle.dumps,
}


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as st:
        yield st


@pytest.mark.parametrize("how", list(DUPLICATORS))
@pytest.mark.parametrize("kind", KINDS)
def test_handle_cannot_be_duplicated(backend: Any, stack: ExitStack, kind: str, how: str) -> None:
    """Class 1 (second owner): copy.copy / copy.deepcopy / pickle.dumps of a handle-like
    object would give two owners of one buffer, stream or transfer: TypeError, and the
    message names the object."""
    obj = _make(kind, stack)
    duplicate = DUPLICATORS[how]
    raised: BaseException | None = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)  # a duplicated transfer dropped
        try:
            duplicate(obj)
        except BaseException as e:
            raised = e
        gc.collect()
    assert isinstance(raised, TypeError), f"{how}({kind}) gave {raised!r}, not a TypeError"
    public = type(obj).__name__
    if not public.startswith("_"):
        label = getattr(obj, "label", public)
        assert public in str(raised) or str(label) in str(raised), str(raised)


def test_duplicated_transfer_does_not_hand_the_buffer_out_twice(backend: Any) -> None:
    """Class 1 (second owner): the attack behind the copy rule: `copy.copy(transfer)`
    and waiting both must not give two owned handles to one pinned buffer."""
    s = nx.stream()
    t = s.upload(nx.pinned_array(N, F32), to=nx.device_array(N, F32))
    with pytest.raises(TypeError):
        twin = copy.copy(t)
        first = t.wait()
        second = twin.wait()
        assert first.read().ctypes.data != second.read().ctypes.data  # two owners
    if not t.completed:
        t.wait()
    s.close()


# -- no public constructors ----------------------------------------------------------------
def _constructor_args(name: str, stack: ExitStack) -> tuple[Any, ...] | None:
    """Arguments an attacker would pass to build ``nx.<name>`` by hand (None: the class
    is not a handle or is publicly constructible by decision)."""
    s = nx.stream()
    if name in ("PinnedPool", "Pipeline"):
        return None
    if name == "Mapping":
        m = nx.mapped_array(N, F32)
        return (m, types.SimpleNamespace(site=(__file__, 1), returned_at=None))
    if name == "PipelineRun":
        t1 = s.upload(nx.pinned_array(N, F32), to=nx.device_array(N, F32))
        t2 = s.upload(nx.pinned_array(N, F32), to=nx.device_array(N, F32))
        stack.callback(lambda: [t.wait() for t in (t1, t2) if not t.completed])
        return (t1, t2)
    if name == "PinnedScope":
        return (np.zeros(N, F32),)
    if name == "Kernel":
        return (add_one, (), ("a",))
    return ()


PUBLIC_CLASSES = sorted(
    name
    for name in nx.__all__
    if isinstance(getattr(nx, name), type)
    and not issubclass(getattr(nx, name), BaseException)
    and name not in ("Owned", "Lent")  # phantom capability types: never instantiated
)


@pytest.mark.parametrize("name", PUBLIC_CLASSES)
def test_no_public_constructor(backend: Any, stack: ExitStack, name: str) -> None:
    """Class 1 (second owner): `nx.Mapping(m, ...)`, `nx.PipelineRun(...)`,
    `nx.PinnedScope(a)`, `nx.Kernel(...)`, `nx.Transfer()` ... are not publicly
    constructible (TypeError); only PinnedPool and Pipeline are."""
    args = _constructor_args(name, stack)
    if args is None:
        pytest.skip(f"nx.{name} is publicly constructible by decision")
    cls = getattr(nx, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        with pytest.raises(TypeError):
            made = cls(*args)
            del made
            gc.collect()


def test_hand_built_mapping_is_not_a_second_owner(backend: Any) -> None:
    """Class 1 (second owner): `nx.Mapping(m, fake_move)` gives kernels `m`'s memory
    while `m` is still owned and writable."""
    m = nx.mapped_array(N, F32)
    with pytest.raises(TypeError):
        nx.Mapping(m, types.SimpleNamespace(site=(__file__, 1), returned_at=None))  # type: ignore[call-arg]
    with m.write() as a:  # m is untouched by the refused call
        a[:] = 1.0


@pytest.mark.parametrize(
    "name",
    [
        "DeviceArray",
        "Kernel",
        "MappedArray",
        "Mapping",
        "PinnedArray",
        "PinnedPool",
        "PinnedScope",
        "Pipeline",
        "PipelineRun",
        "Stream",
        "Transfer",
    ],
)
def test_public_classes_are_final(name: str) -> None:
    """Class 1 (second owner): a subclass could override a handle's checks (or add
    __reduce__); public classes are typing.final (`__final__` is True at run time).
    PinnedArray has one subclass of its own (MappedArray), so it refuses subclasses
    defined outside numbaxfer instead."""
    cls = getattr(nx, name)
    if getattr(cls, "__final__", False) is True:
        return
    with pytest.raises(TypeError, match="subclass"):
        type("Sub", (cls,), {"__module__": "user"})


# -- a lend of a lend may not outlive its parent's protection ------------------------------
@pytest.mark.parametrize("attack", ["write", "upload", "download", "free", "lend-then-write"])
def test_lend_of_a_lend_keeps_the_owner_locked(backend: Any, attack: str) -> None:
    """Class 1 (second owner): `with host.lend() as a:` then `with a.lend() as b:`;
    `a`'s block ends first (entered/exited by hand): while `b` lives, the owner may not
    be moved, written or freed."""
    host = nx.pinned_array(N, F32)
    with host.write() as w:
        w[:] = 3.0
    s = nx.stream()
    dev = nx.device_array(N, F32)
    scope_a = host.lend()
    a = scope_a.__enter__()
    scope_b = a.lend()
    b = scope_b.__enter__()
    scope_a.__exit__(None, None, None)
    try:
        with pytest.raises(nx.BorrowError):
            if attack == "write":
                with host.write() as w:
                    w[:] = 9.0
            elif attack == "upload":
                s.upload(host, to=dev).wait()
            elif attack == "download":
                s.download(dev, into=host).wait()
            elif attack == "free":
                host.free()
            else:
                with host.lend():
                    pass
                with host.write() as w:
                    w[:] = 9.0
        assert float(b.read()[0]) == 3.0  # b still sees the data it was lent
    finally:
        scope_b.__exit__(None, None, None)
    # b's block has ended: the owner is free again
    with host.write() as w:  # type: ignore[use-after-transfer]
        w[:] = 1.0
    s.close()


def test_lend_of_a_lent_device_array_keeps_the_owner_locked(backend: Any) -> None:
    """Class 1 (second owner): the same for device arrays: while the inner lend of a
    lend lives, the owner may not be freed or written."""
    dev = nx.device_array(N, F32)
    s = nx.stream()
    scope_a = dev.lend()
    a = scope_a.__enter__()
    scope_b = a.lend()
    scope_b.__enter__()
    scope_a.__exit__(None, None, None)
    try:
        with pytest.raises(nx.BorrowError):
            s.launch(add_one, 1, N, dev)
        with pytest.raises(nx.BorrowError):
            dev.free()
    finally:
        scope_b.__exit__(None, None, None)
    s.launch(add_one, 1, N, dev)
    s.synchronize()
    s.close()


# -- nx.pinned() nested on the same memory ----------------------------------------------
@pytest.mark.parametrize("which", ["same", "view", "overlap"])
def test_pinned_twice_on_one_memory_is_refused(backend: Any, which: str) -> None:
    """Class 1 (second owner): `nx.pinned(a)` inside an open `nx.pinned()` block on the
    same or overlapping memory would give two owned handles; BorrowError naming the
    first block's site. After the first block ends, pinning again works."""
    a = np.zeros(N, F32)
    second = {"same": a, "view": a.view(), "overlap": a[N // 2 :]}[which]
    with nx.pinned(a) as h1:
        first_line = __import__("inspect").currentframe().f_lineno - 1
        with pytest.raises(nx.BorrowError) as err, nx.pinned(second):
            pass
        assert f"{__file__}:{first_line}" in str(err.value)
        with h1.write() as w:
            w[:] = 1.0
    with nx.pinned(second) as h2:
        assert float(h2.read()[0]) == 1.0


def test_disjoint_pinned_blocks_still_nest(backend: Any) -> None:
    """Class 1 (second owner), the other side: two halves of one array do not overlap,
    so pinning both at once is allowed (the check must not be too coarse)."""
    a = np.zeros(N, F32)
    with nx.pinned(a[: N // 2]) as lo, nx.pinned(a[N // 2 :]) as hi:
        assert lo.size == hi.size == N // 2
