"""Issue 10, class 4: race windows between threads. Each race is forced once
deterministically (a wrapper backend pauses one thread inside a backend call, in the
window between numbaxfer's check and its commit) and then stressed with real threads
for a bounded time."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.adversarial.conftest import Wrapper, run_threads
from tests.kernels import affine

N = 64
CHUNK = 16
F32 = np.float32
STRESS_S = 1.5


def _filled(value: Any) -> nx.PinnedArray[nx.Owned, np.float32]:
    h = nx.pinned_array(N, F32)
    with h.write() as a:
        a[:] = value
    return h


class Box:
    """What a thread produced: a value or an exception."""

    def __init__(self) -> None:
        self.value: Any = None
        self.error: BaseException | None = None


def _start(fn: Any, box: Box) -> threading.Thread:
    def body() -> None:
        try:
            box.value = fn()
        except BaseException as e:
            box.error = e

    t = threading.Thread(target=body, daemon=True)
    t.start()
    return t


# -- close() racing upload() ---------------------------------------------------------------
def _check_close_vs_upload(
    up: Box, closed: Box, src: nx.PinnedArray[nx.Owned, np.float32], s: nx.Stream[nx.Owned]
) -> None:
    if up.error is None:  # the upload won: close must have refused
        assert isinstance(closed.error, nx.StreamClosedError), (
            f"upload succeeded and close gave {closed.error!r}: an upload on a closed stream"
        )
        up.value.wait()
        s.close()
    else:  # the close won: the upload refused cleanly and src is untouched
        assert isinstance(up.error, nx.StreamClosedError), repr(up.error)
        assert closed.error is None, repr(closed.error)
        assert float(src.read()[0]) == 6.0


@pytest.mark.parametrize(
    ("paused_op", "method"),
    [("upload", "copy_htod"), ("close", "record")],
    ids=["upload-paused-after-enqueue", "close-paused-after-tail-event"],
)
def test_close_racing_upload_forced(wrap: Wrapper, paused_op: str, method: str) -> None:
    """Class 4 (race window): `close()` racing another thread's `upload()` on one
    stream: either the close wins (upload raises StreamClosedError, src usable) or the
    upload wins (close raises StreamClosedError for it); never an upload on a closed
    stream. One thread is paused inside the backend in the middle of its operation."""
    s = nx.stream()
    dev = nx.device_array(N, F32)
    src = _filled(6.0)
    up, closed = Box(), Box()
    if paused_op == "upload":
        wrap.pause(method)
        a = _start(lambda: s.upload(src, to=dev), up)
        assert wrap.paused.wait(5)
        b = _start(s.close, closed)
    else:
        wrap.pause(method)
        b = _start(s.close, closed)
        assert wrap.paused.wait(5)
        a = _start(lambda: s.upload(src, to=dev), up)
    b_or_a = b if paused_op == "upload" else a
    b_or_a.join(0.3)  # a correct library blocks it on its lock until the pause ends
    wrap.resume.set()
    a.join(5)
    b.join(5)
    _check_close_vs_upload(up, closed, src, s)


def test_close_racing_upload_stress(backend: Any) -> None:
    """Class 4 (race window): the same race with real threads, repeated (bounded)."""
    deadline = time.monotonic() + STRESS_S
    while time.monotonic() < deadline:
        s = nx.stream()
        dev = nx.device_array(N, F32)
        src = _filled(6.0)
        up, closed = Box(), Box()
        barrier = threading.Barrier(2)

        def do_upload(s: Any = s, dev: Any = dev, src: Any = src, barrier: Any = barrier) -> Any:
            barrier.wait()
            return s.upload(src, to=dev)

        def do_close(s: Any = s, barrier: Any = barrier) -> None:
            barrier.wait()
            s.close()

        a, b = _start(do_upload, up), _start(do_close, closed)
        a.join(5)
        b.join(5)
        _check_close_vs_upload(up, closed, src, s)


# -- free() racing upload() into the same device array -----------------------------------
def _check_free_vs_upload(up: Box, freed: Box) -> None:
    assert not isinstance(up.error, AttributeError), repr(up.error)
    assert not isinstance(freed.error, AttributeError), repr(freed.error)
    assert freed.error is None, f"free() failed: {freed.error!r}"
    if up.error is None:  # upload won; the free was deferred: the copy still completes
        host = up.value.wait()
        assert float(host.read()[0]) == 6.0
    else:
        assert isinstance(up.error, nx.UseAfterTransferError), repr(up.error)


def test_free_racing_upload_forced(wrap: Wrapper) -> None:
    """Class 4 (race window): `free()` of a device array racing an upload into it:
    either the free wins (UseAfterTransferError from the upload) or the upload wins
    (the free succeeds, deferred); never an AttributeError. The uploading thread is
    paused inside the event record of the cross-stream wait it needs, after its checks
    and before it reads the array's memory."""
    s, other = nx.stream(), nx.stream()
    dev = nx.device_array(N, F32)
    other.upload(_filled(1.0), to=dev).wait()  # dev last written on `other`
    src = _filled(6.0)
    up, freed = Box(), Box()
    wrap.pause("record", before=True)
    a = _start(lambda: s.upload(src, to=dev), up)
    assert wrap.paused.wait(5)
    b = _start(dev.free, freed)
    b.join(0.3)
    wrap.resume.set()
    a.join(5)
    b.join(5)
    _check_free_vs_upload(up, freed)
    s.synchronize()


def test_free_racing_upload_stress(backend: Any) -> None:
    """Class 4 (race window): the same race with real threads, repeated (bounded)."""
    s, other = nx.stream(), nx.stream()
    deadline = time.monotonic() + STRESS_S
    while time.monotonic() < deadline:
        dev = nx.device_array(N, F32)
        other.upload(_filled(1.0), to=dev).wait()
        src = _filled(6.0)
        up, freed = Box(), Box()
        barrier = threading.Barrier(2)

        def do_upload(dev: Any = dev, src: Any = src, barrier: Any = barrier) -> Any:
            barrier.wait()
            return s.upload(src, to=dev)

        def do_free(dev: Any = dev, barrier: Any = barrier) -> None:
            barrier.wait()
            dev.free()

        a, b = _start(do_upload, up), _start(do_free, freed)
        a.join(5)
        b.join(5)
        _check_free_vs_upload(up, freed)
    s.synchronize()


# -- two threads map() on one Pipeline ---------------------------------------------------
def _step(s: nx.Stream[nx.Lent], a: nx.DeviceArray[nx.Owned, Any], b: Any) -> None:
    s.launch(affine, 1, CHUNK, a, b)


def test_two_threads_map_one_pipeline_forced(backend: Any) -> None:
    """Class 4 (race window): two threads calling `map()` on one Pipeline each get
    their own correct results. Thread A is paused inside its own step (chunk 0) while
    thread B maps; the slots' device buffers must not be shared between the runs."""
    pipe = nx.Pipeline(CHUNK, F32, slots=2)
    in_step, release = threading.Event(), threading.Event()
    first = [True]

    def pausing_step(s: nx.Stream[nx.Lent], a: nx.DeviceArray[nx.Owned, Any], b: Any) -> None:
        if first[0]:
            first[0] = False
            in_step.set()
            release.wait(0.5)
        _step(s, a, b)

    xa, xb = np.arange(N, dtype=F32), np.arange(N, dtype=F32) + 1000.0
    ra, rb = Box(), Box()
    ta = _start(lambda: pipe.map(_filled(xa), into=_filled(0.0), step=pausing_step).wait(), ra)
    assert in_step.wait(5)
    tb = _start(lambda: pipe.map(_filled(xb), into=_filled(0.0), step=_step).wait(), rb)
    tb.join(0.5)
    release.set()
    ta.join(10)
    tb.join(10)
    assert ra.error is None and rb.error is None, (ra.error, rb.error)
    np.testing.assert_array_equal(ra.value[1].read(), 2.0 * xa + 1.0)
    np.testing.assert_array_equal(rb.value[1].read(), 2.0 * xb + 1.0)
    pipe.close()


def test_two_threads_map_one_pipeline_stress(backend: Any) -> None:
    """Class 4 (race window): the same with real threads, repeated (bounded)."""
    pipe = nx.Pipeline(CHUNK, F32, slots=2)
    deadline = time.monotonic() + STRESS_S
    while time.monotonic() < deadline:
        xs = [np.arange(N, dtype=F32) + 1000.0 * k for k in range(2)]
        boxes = [Box(), Box()]

        def run(k: int, boxes: list[Box] = boxes, xs: list[Any] = xs) -> None:
            boxes[k].value = pipe.map(_filled(xs[k]), into=_filled(0.0), step=_step).wait()

        errors = run_threads(lambda: run(0), lambda: run(1))
        assert errors == [None, None], errors
        for k in range(2):
            np.testing.assert_array_equal(boxes[k].value[1].read(), 2.0 * xs[k] + 1.0)
    pipe.close()
