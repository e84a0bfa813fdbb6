"""Adversarial findings NOT in the issue-10 decisions file: each breaks a promise of
the README/DESIGN (no second owner, nothing lost, read-only views, every handle as it
was after an error). Expected to fail on today's code."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx

N = 64
F32 = np.float32
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("backend_name", ["numba", "emulator"])
@pytest.mark.parametrize(
    "scenario", ["upload", "download", "pipeline_wait", "drain", "mapping_wait"]
)
def test_interrupt_at_every_line_of_other_calls(scenario: str, backend_name: str) -> None:
    """Class 2 (lost after interrupt), beyond wait()/take(): KeyboardInterrupt at every
    line of upload / download / PipelineRun.wait / PinnedPool.drain / Mapping.wait.
    Today one of numbaxfer's locks (`_LOCK.acquire()` before `try:`) stays held and
    every later call deadlocks; PipelineRun.wait loses src when dst's wait is hit."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "tests.adversarial.sweep", scenario, backend_name],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]


def test_read_view_base_is_not_writable(backend: Any) -> None:
    """Class 5 (writable views): `h.read().base` is the handle's own writable array, so
    a read view writes the buffer through `.base`, even while a download owns it."""
    h = nx.pinned_array(N, F32)
    view = h.read()
    chain = []
    base = view.base
    while isinstance(base, np.ndarray):
        chain.append(base.flags.writeable)
        base = base.base
    assert not any(chain), "a writable ndarray is reachable from read() through .base"


def test_stale_write_scope_exit_does_not_end_a_later_write(backend: Any) -> None:
    """Class 1 (second owner): exiting a finished write() scope again ends the *next*
    write block's borrow: the array can then be moved while its writable view is open."""
    h = nx.pinned_array(N, F32)
    s = nx.stream()
    dev = nx.device_array(N, F32)
    old = h.write()
    with old:
        pass
    with h.write() as live:
        old.__exit__(None, None, None)  # a stale scope, exited again
        with pytest.raises(nx.BorrowError):
            t = s.upload(h, to=dev)  # type: ignore[owner-borrowed]  # the refusal under test
            live[:] = 7.0  # writes while the copy owns the memory
            t.wait()


def test_stale_lend_scope_exit_does_not_end_a_later_lend(backend: Any) -> None:
    """Class 1 (second owner): exiting a lend scope twice removes another live lend taken
    at the same line (or crashes with list.remove): the owner can then be written while
    that lend lives."""
    h = nx.pinned_array(N, F32)
    scopes = [h.lend() for _ in range(2)]  # one call site for both lends
    scopes[0].__enter__()
    scopes[1].__enter__()
    scopes[0].__exit__(None, None, None)
    with contextlib.suppress(RuntimeError):  # stale: may raise, must not unlock
        scopes[0].__exit__(None, None, None)
    with pytest.raises(nx.BorrowError), h.write() as w:
        w[:] = 1.0
    scopes[1].__exit__(None, None, None)


def test_pinning_a_write_view_is_not_a_second_owner(backend: Any) -> None:
    """Class 1 (second owner): `nx.pinned(view)` over the memory of a PinnedArray (its
    write() view) gives a second owned handle to the same memory: one can be uploaded
    while the other is written."""
    h = nx.pinned_array(N, F32)
    with h.write() as w, pytest.raises(nx.OwnershipError), nx.pinned(w) as twin:
        twin.read()


def test_step_cannot_free_the_pipelines_buffers(backend: Any) -> None:
    """Class 2 (lost): `step` gets the pipeline's own device buffers as Owned handles and
    can free them: the next chunk then crashes and the pipeline is broken for good."""
    pipe = nx.Pipeline(16, F32, slots=2)

    def evil(s: nx.Stream[nx.Lent], a: nx.DeviceArray[nx.Owned, Any], b: Any) -> None:
        a.free()

    src, dst = nx.pinned_array(N, F32), nx.pinned_array(N, F32)
    with pytest.raises(nx.OwnershipError):
        pipe.map(src, into=dst, step=evil).wait()
    src.read()
    dst.read()
    pipe.close()


def test_recycled_transfer_is_consumed(backend: Any) -> None:
    """Class 1 (second owner): `pool.recycle(t)` is documented to MOVE the transfer into
    the pool, yet the caller can still `t.wait()` it and get the buffer back; the pool's
    next `take()` then fails (UseAfterTransferError) instead of handing out a buffer."""
    s = nx.stream()
    pool = nx.PinnedPool(1, N, F32)
    b = pool.take()
    assert b is not None
    t = s.download(nx.device_array(N, F32), into=b)
    pool.recycle(t)
    with pytest.raises(nx.OwnershipError):
        t.wait()  # type: ignore[use-after-transfer]
    got = pool.take(timeout=1.0)
    assert got is not None
    s.close()


def test_lent_handle_of_a_mapped_array_is_a_mapped_array(backend: Any) -> None:
    """Class 7 (mappings): `m.lend()` of a MappedArray yields a plain PinnedArray (the
    type is lost, like after a transfer)."""
    m = nx.mapped_array(N, F32)
    with m.lend() as view:
        assert isinstance(view, nx.MappedArray), type(view)
