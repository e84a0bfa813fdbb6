"""Rules whose point is timing, shown on the lazy emulator where copies run only when
forced: what a GPU may do, made deterministic on a CPU."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._lifetime import orphan_count
from numbaxfer._order import StreamCore
from tests.kernels import add_one

N = 4096


def filled(value: float) -> nx.PinnedArray[nx.Owned, np.float32]:
    host = nx.pinned_array(N, np.float32)
    with host.write() as a:
        a[:] = value
    return host


def test_raw_async_upload_then_host_write_is_wrong() -> None:
    """The seed bug, written the numba way on the emulator: the copy reads late."""
    b = _backend.get_backend()
    s = b.new_stream()
    host = b.alloc_pinned((N,), np.dtype(np.float32))
    dev = b.alloc_device((N,), np.dtype(np.float32))
    host[:] = 1.0
    b.copy_htod(s, dev, host)
    host[-1] = 2.0  # numba lets this through
    b.sync_stream(s)
    assert dev.copy_to_host()[-1] == 2.0  # the device got the later value: corrupted


def test_raw_early_read_of_download_destination_is_stale() -> None:
    b = _backend.get_backend()
    s = b.new_stream()
    dev = b.alloc_device((N,), np.dtype(np.float32))
    out = b.alloc_pinned((N,), np.dtype(np.float32))
    src = np.full(N, 3.0, np.float32)
    b.copy_htod(s, dev, src)
    b.copy_dtoh(s, out, dev)
    assert out[-1] == 0.0  # read before the copy ran: stale
    b.sync_stream(s)
    assert out[-1] == 3.0


def test_numbaxfer_refuses_the_seed_bug_and_the_fix_is_right() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = filled(1.0)
    up = s.upload(host, to=dev)
    with pytest.raises(nx.UseAfterTransferError):
        host.write()  # type: ignore[use-after-transfer]
    host = up.wait()  # the corrected program: wait, then write
    with host.write() as a:
        a[-1] = 2.0
    out = s.download(dev, into=nx.pinned_array(N, np.float32)).wait()
    assert (out.read() == 1.0).all()


def test_download_destination_is_right_once_returned() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = s.upload(filled(3.0), to=dev).wait()
    down = s.download(dev, into=nx.pinned_array(N, np.float32))
    out = down.wait()
    assert (out.read() == 3.0).all() and (host.read() == 3.0).all()


def test_dropped_transfer_keeps_host_memory_alive_until_the_copy_has_run() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = filled(4.0)
    buffer = weakref.ref(host._buf.base if host._buf.base is not None else host._buf)
    before = orphan_count()
    with pytest.warns(ResourceWarning):
        s.upload(host, to=dev)  # type: ignore[unfinished-transfer]
    del host
    gc.collect()
    assert buffer() is not None, "freed while the copy had not run"
    assert orphan_count() == before + 1
    _backend.get_backend().sync_stream(s._core.raw)  # the copy runs now
    assert orphan_count() == before
    gc.collect()
    assert buffer() is None, "kept alive after the copy finished"
    out = s.download(dev, into=nx.pinned_array(N, np.float32)).wait()
    assert (out.read() == 4.0).all()  # and the copy read the right data


def test_wait_synchronizes_its_own_event_not_the_stream() -> None:
    s = nx.stream()
    a, b = nx.device_array(N, np.float32), nx.device_array(N, np.float32)
    first = s.upload(filled(1.0), to=a)
    second = s.upload(filled(2.0), to=b)
    first.wait()
    assert b._buf.copy_to_host()[0] == 0.0, "wait() ran work enqueued after its transfer"
    second.wait()
    assert b._buf.copy_to_host()[0] == 2.0


def _cross_stream_download(monkeypatch: pytest.MonkeyPatch | None) -> float:
    if monkeypatch is not None:  # switch rule 4's cross-stream ordering off
        monkeypatch.setattr(StreamCore, "plan", lambda self, uses: [])
    producer, consumer = nx.stream(), nx.stream()
    dev = nx.device_array(N, np.float32)
    up = producer.upload(filled(5.0), to=dev)
    down = consumer.download(dev, into=nx.pinned_array(N, np.float32))
    value = float(down.wait().read()[-1])
    up.wait()
    return value


def test_cross_stream_use_is_ordered_on_the_device() -> None:
    assert _cross_stream_download(None) == 5.0


def test_cross_stream_ordering_switched_off_gives_the_wrong_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _cross_stream_download(monkeypatch) == 0.0


def test_kernel_on_another_stream_waits_for_the_upload() -> None:
    a, b = nx.stream(), nx.stream()
    dev = nx.device_array(N, np.float32)
    up = a.upload(filled(1.0), to=dev)
    b.launch(add_one, N // 128, 128, dev)
    out = b.download(dev, into=up.wait()).wait()
    assert (out.read() == 2.0).all()


def test_done_answers_not_yet_then_completes() -> None:
    s = nx.stream()
    host = filled(1.0)
    up = s.upload(host, to=nx.device_array(N, np.float32))
    polls = 0
    while not up.done():
        polls += 1
    assert polls >= 1
    assert up.wait().read()[0] == 1.0


def test_close_refuses_in_flight_transfers_then_allows_after_wait() -> None:
    s = nx.stream()
    down = s.download(nx.device_array(N, np.float32), into=filled(0.0))
    with pytest.raises(nx.StreamClosedError, match="download#"):
        s.close()  # type: ignore[unfinished-transfer]  # the static check sees it too
    down.wait()
    s.close()


def test_failed_enqueue_leaves_the_handle_owned(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend.get_backend()

    def broken(*args: Any) -> None:
        raise RuntimeError("driver error")

    monkeypatch.setattr(backend, "copy_htod", broken)
    s = nx.stream()
    host = filled(1.0)
    with pytest.raises(RuntimeError, match="driver error"):
        s.upload(host, to=nx.device_array(N, np.float32))
    assert host.read()[0] == 1.0  # not moved: nothing was enqueued
