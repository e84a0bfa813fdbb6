"""Issue 10, class 2: nothing lost after an error or an interrupt. An exception (user
code, KeyboardInterrupt, a backend failure) at any point of a call leaves every handle
usable: nothing stays moved into an object nobody holds."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.adversarial.conftest import Wrapper
from tests.kernels import add_one, affine

N = 64
CHUNK = 16
F32 = np.float32
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _filled(values: Any) -> nx.PinnedArray[nx.Owned, np.float32]:
    h = nx.pinned_array(N, F32)
    with h.write() as a:
        a[:] = values
    return h


def _affine_step(s: nx.Stream[nx.Lent], a: nx.DeviceArray[nx.Owned, Any], b: Any) -> None:
    s.launch(affine, 1, CHUNK, a, b)


# -- Pipeline.map with a step that raises ------------------------------------------------
@pytest.mark.parametrize("failing_chunk", [0, 2])
def test_pipeline_step_raising_gives_src_and_dst_back(backend: Any, failing_chunk: int) -> None:
    """Class 2 (lost after error): `Pipeline.map(src, into=dst, step=f)` where `f`
    raises on chunk k: the exception propagates; `src` and `dst` (the caller's own
    handles) are usable again with `src`'s data intact, the pipeline maps again
    correctly, and its streams close."""
    pipe = nx.Pipeline(CHUNK, F32, slots=2)
    original = np.arange(N, dtype=F32)
    src = _filled(original)
    dst = _filled(0.0)
    calls = 0

    def step(s: nx.Stream[nx.Lent], a: nx.DeviceArray[nx.Owned, Any], b: Any) -> None:
        nonlocal calls
        if calls == failing_chunk:
            raise ZeroDivisionError("user step failed")
        calls += 1
        _affine_step(s, a, b)

    with pytest.raises(ZeroDivisionError):
        pipe.map(src, into=dst, step=step)
    np.testing.assert_array_equal(src.read(), original)
    dst.read()
    with dst.write() as w:
        w[:] = 0.0
    src, dst = pipe.map(src, into=dst, step=_affine_step).wait()
    np.testing.assert_array_equal(dst.read(), 2.0 * original + 1.0)
    pipe.close()


@pytest.mark.parametrize("step", [None, 42, "affine"])
def test_pipeline_refuses_a_non_callable_step_before_moving(backend: Any, step: Any) -> None:
    """Class 2 (lost after error): `step=None` or another non-callable is a TypeError
    before anything moves: `src` and `dst` stay usable."""
    pipe = nx.Pipeline(CHUNK, F32, slots=2)
    src, dst = _filled(1.0), _filled(0.0)
    with pytest.raises(TypeError):
        pipe.map(src, into=dst, step=step)
    assert float(src.read()[0]) == 1.0
    dst.read()
    pipe.close()


# -- an interrupt inside Transfer.wait() ---------------------------------------------------
@pytest.mark.parametrize(
    ("method", "after"),
    [("sync_event", False), ("sync_event", True), ("release_event", False)],
    ids=["before-sync", "after-sync", "in-release"],
)
def test_interrupt_inside_wait_leaves_the_transfer_pending(
    wrap: Wrapper, method: str, after: bool
) -> None:
    """Class 2 (lost after interrupt): KeyboardInterrupt inside `Transfer.wait()`, before
    or after the event synchronized: the transfer is still pending, a second `wait()`
    returns the array, and the stream can then close."""
    s = nx.stream()
    t = s.upload(_filled(5.0), to=nx.device_array(N, F32))
    wrap.fail(method, KeyboardInterrupt(), after=after)
    with pytest.raises(KeyboardInterrupt):
        t.wait()
    assert not t.completed
    h = t.wait()
    assert float(h.read()[0]) == 5.0
    s.close()


def _sweep(scenario: str, backend: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=ROOT)
    return subprocess.run(
        [sys.executable, "-m", "tests.adversarial.sweep", scenario, backend],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("backend_name", ["numba", "emulator"])
def test_interrupt_at_every_line_of_wait(backend_name: str) -> None:
    """Class 2 (lost after interrupt): KeyboardInterrupt at *every* line numbaxfer runs
    inside `Transfer.wait()` (a child process interrupts each in turn): afterwards the
    transfer is pending, a second `wait()` returns the data without deadlocking, and the
    stream closes."""
    done = _sweep("wait", backend_name)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]


# -- an interrupt inside PinnedPool.take() ------------------------------------------------
def test_interrupted_take_does_not_lose_the_buffer(wrap: Wrapper) -> None:
    """Class 2 (lost after interrupt): `PinnedPool.take()` interrupted while it waits
    on a recycled transfer: the buffer is not lost; a later `take()` returns it."""
    s = nx.stream()
    pool = nx.PinnedPool(1, N, F32)
    b = pool.take()
    assert b is not None
    pool.recycle(s.download(nx.device_array(N, F32), into=b))
    wrap.fail("sync_event", KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        pool.take()
    again = pool.take(timeout=1.0)
    assert again is not None
    pool.give(again)
    s.close()


@pytest.mark.parametrize("backend_name", ["numba", "emulator"])
def test_interrupt_at_every_line_of_take(backend_name: str) -> None:
    """Class 2 (lost after interrupt): KeyboardInterrupt at every line of
    `PinnedPool.take()` waiting on a recycled download: a later `take()` still returns
    the buffer (and nothing deadlocks)."""
    done = _sweep("take", backend_name)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]


# -- mapping.device.free() -----------------------------------------------------------------
def test_mapping_device_cannot_be_freed(backend: Any) -> None:
    """Class 2 (lost): `mapping.device.free()` would make `mapping.wait()` fail and lose
    the mapped array: BorrowError (the mapping owns it), and `wait()` still works."""
    s = nx.stream()
    m = nx.mapped_array(N, F32)
    with m.write() as a:
        a[:] = 1.0
    mp = s.map(m)
    s.launch(add_one, 1, N, mp.device)
    with pytest.raises(nx.BorrowError):
        mp.device.free()
    m = mp.wait()
    assert float(m.read()[0]) == 2.0
    s.close()
