"""Ownership-checked graphs (``nx.capture``, ``Graph.replay``) on the lazy emulator.

A replay's copies run only when forced, like any other: so a host buffer touched
between a replay and its completion gives the wrong answer with the raw backend graph
(no ownership), every time, while numbaxfer refuses the touch at its line.
"""

from __future__ import annotations

import gc
import warnings
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._lifetime import orphan_count
from tests.kernels import affine

N = 64
F32 = np.float32
AFFINE = nx.kernel(reads=["src"], writes=["dst"])(affine)
Host = nx.PinnedArray[nx.Owned, Any]


def filled(values: Any, n: int = N) -> Host:
    host = nx.pinned_array(n, F32)
    with host.write() as a:
        a[:] = values
    return host


def refill(host: Host, values: Any) -> None:
    with host.write() as a:
        a[:] = values


def roundtrip_graph(
    s: nx.Stream[nx.Owned], t: nx.Stream[nx.Owned] | None = None
) -> tuple[nx.Graph, Host, Host, nx.DeviceArray[nx.Owned, Any]]:
    """upload (s) -> affine (t, or s) -> download (t, or s), captured."""
    t = s if t is None else t
    src, out = nx.pinned_array(N, F32), nx.pinned_array(N, F32)
    din, dout = nx.device_array(N, F32), nx.device_array(N, F32)
    streams = (s,) if t is s else (s, t)
    with nx.capture(*streams) as cap:
        up = s.upload(src, to=din)
        t.launch(AFFINE, 1, N, din, dout)
        down = t.download(dout, into=out)
    src, out = up.wait(), down.wait()
    return cap.graph, src, out, dout


def test_capture_records_and_replay_runs_right_on_one_and_two_streams() -> None:
    s, t = nx.stream(), nx.stream()
    for graph, src, out, _ in (roundtrip_graph(s), roundtrip_graph(s, t)):
        assert graph.parameters == (((N,), np.dtype(F32)), ((N,), np.dtype(F32)))
        assert (out.read() == 0).all()  # the capture ran nothing
        for r in range(3):
            refill(src, np.arange(N) + r)
            src, out = graph.replay(src, out).wait()
            np.testing.assert_array_equal(out.read(), 2 * (np.arange(N) + r) + 1)
        graph.close()


def test_parts_captured_on_two_streams_make_one_parameter_per_whole_array() -> None:
    s, t = nx.stream(), nx.stream()
    src, out = filled(0.0), nx.pinned_array(N, F32)
    din, dout = nx.device_array(N, F32), nx.device_array(N, F32)
    pin, pout, dins, douts = nx.split(src, 2), nx.split(out, 2), nx.split(din, 2), nx.split(dout, 2)
    with nx.capture(s, t) as cap:
        ups, downs = [], []
        for k, (a, b) in enumerate(((s, t), (t, s))):
            ups.append(a.upload(pin[k], to=dins[k]))
            b.launch(AFFINE, 1, N // 2, dins[k], douts[k])  # a cross-stream edge in the graph
            downs.append(b.download(douts[k], into=pout[k]))
    graph = cap.graph
    assert len(graph.parameters) == 2
    src, out = nx.join([u.wait() for u in ups]), nx.join([d.wait() for d in downs])
    refill(src, np.arange(N))
    src, out = graph.replay(src, out).wait()
    np.testing.assert_array_equal(out.read(), 2 * np.arange(N) + 1)


def test_raw_backend_graph_host_touched_during_replay_is_wrong() -> None:
    """The race exists: the backend's own graph, no ownership; the program writes the
    buffer after the replay was enqueued, and the replay's copy reads the later value."""
    b = _backend.get_backend()
    s = b.new_stream()
    host = b.alloc_pinned((N,), np.dtype(F32))
    dev = b.alloc_device((N,), np.dtype(F32))
    cap = b.begin_capture([s])
    b.copy_htod(s, dev, host)
    graph = b.end_capture(cap, [host])
    host[:] = 1.0
    b.graph_launch(graph, s, [host])
    host[-1] = 2.0  # nothing stops this
    b.sync_stream(s)
    assert dev.copy_to_host()[-1] == 2.0  # the replay uploaded the later value: corrupted


def test_raw_backend_graph_download_read_early_is_stale() -> None:
    b = _backend.get_backend()
    s = b.new_stream()
    dev = b.alloc_device((N,), np.dtype(F32))
    b.copy_htod(s, dev, np.full(N, 3.0, F32))
    out = b.alloc_pinned((N,), np.dtype(F32))
    cap = b.begin_capture([s])
    b.copy_dtoh(s, out, dev)
    graph = b.end_capture(cap, [out])
    b.graph_launch(graph, s, [out])
    assert out[-1] == 0.0  # read before the replay ran: stale
    b.sync_stream(s)
    assert out[-1] == 3.0


def test_numbaxfer_refuses_every_touch_between_replay_and_wait() -> None:
    s = nx.stream()
    graph, src, out, _ = roundtrip_graph(s)
    refill(src, 1.0)
    run = graph.replay(src, out)
    with (
        pytest.raises(nx.UseAfterTransferError, match=r"replay.*run\.wait\(\)"),
        src.write() as a,  # type: ignore[use-after-transfer]
    ):
        a[-1] = 2.0
    with pytest.raises(nx.UseAfterTransferError):
        out.read()  # type: ignore[use-after-transfer]
    with pytest.raises(nx.UseAfterTransferError):
        src.lend()  # type: ignore[use-after-transfer]
    with pytest.raises(nx.UseAfterTransferError):
        untyped: Any = s  # refused at run time (the checker sees the use already)
        untyped.upload(src, to=nx.device_array(N, F32))  # type: ignore[use-after-transfer]
    assert not run.done()  # lazy: nothing ran yet
    src, out = run.wait()
    assert run.completed
    np.testing.assert_array_equal(out.read(), np.full(N, 3.0))
    with pytest.raises(nx.UseAfterTransferError, match="already completed"):
        run.wait()  # type: ignore[transfer-completed-twice]


def test_other_buffers_update_the_copies_and_replays_in_flight_are_ordered() -> None:
    s = nx.stream()
    graph, a_in, a_out, _ = roundtrip_graph(s)
    b_in, b_out = filled(-5.0), nx.pinned_array(N, F32)
    refill(a_in, np.arange(N))
    ra = graph.replay(a_in, a_out)
    rb = graph.replay(b_in, b_out)  # while the first is in flight
    ra2 = graph.replay(filled(100.0), nx.pinned_array(N, F32))
    b_in, b_out = rb.wait()
    a_in, a_out = ra.wait()
    _, c_out = ra2.wait()
    np.testing.assert_array_equal(a_out.read(), 2 * np.arange(N) + 1)
    np.testing.assert_array_equal(b_out.read(), np.full(N, -9.0))
    np.testing.assert_array_equal(c_out.read(), np.full(N, 201.0))
    np.testing.assert_array_equal(a_in.read(), np.arange(N))  # inputs untouched


def test_replay_orders_later_work_on_other_streams_and_strict_refuses() -> None:
    s, t, strict = nx.stream(), nx.stream(), nx.stream(strict=True)
    graph, src, out, dout = roundtrip_graph(s)
    refill(src, 4.0)
    run = graph.replay(src, out, stream=s)
    other = nx.pinned_array(N, F32)
    down = t.download(dout, into=other)  # no host wait: an event wait on the device
    other = down.wait()
    np.testing.assert_array_equal(other.read(), np.full(N, 9.0))
    refused: Any = strict  # refused calls move nothing (the checker cannot know)
    with pytest.raises(nx.CrossStreamError):
        refused.download(dout, into=other)
    src, out = run.wait()
    replay: Any = graph.replay
    with pytest.raises(nx.CrossStreamError):  # the replay on strict needs a wait: refused
        replay(src, out, stream=strict)
    src, out = graph.replay(src, out, stream=t).wait()  # on another stream: ordered too
    np.testing.assert_array_equal(out.read(), np.full(N, 9.0))


def test_refused_replays_change_nothing() -> None:
    s = nx.stream()
    graph, src, out, _ = roundtrip_graph(s)
    replay: Any = graph.replay  # refused calls move nothing (the checker cannot know)
    backend = _backend.get_backend()
    assert isinstance(backend, _backend._emulator.EmulatorBackend)
    before = backend.pending()
    bad: list[tuple[Any, type[BaseException], str]] = [
        ((src,), TypeError, "takes 2 host buffer"),
        ((src, np.zeros(N, F32)), nx.PageableMemoryError, "pageable"),
        ((src, nx.pinned_array(N + 1, F32)), ValueError, "must be like"),
        ((src, nx.pinned_array(N, np.float64)), ValueError, "must be like"),
        ((src, src), ValueError, "share memory"),
        ((src, nx.device_array(N, F32)), TypeError, "host memory"),
    ]
    for args, error, words in bad:
        with pytest.raises(error, match=words):
            replay(*args)
    with out.lend(), pytest.raises(nx.BorrowError, match="lent"):
        replay(src, out)
    moved = s.upload(filled(0.0), to=nx.device_array(N, F32))
    stale = moved._handle
    with pytest.raises(nx.UseAfterTransferError):
        replay(src, stale)
    moved.wait()
    closed = nx.stream()
    closed.close()
    with pytest.raises(nx.StreamClosedError):
        replay(src, out, stream=closed)
    assert backend.pending() == before  # nothing enqueued
    src.read(), out.read()  # nothing moved
    src, out = graph.replay(src, out).wait()  # and the graph still works
    graph.close()
    graph.close()  # a no-op
    with pytest.raises(nx.StreamClosedError, match="closed"):
        replay(src, out)


def test_close_is_refused_while_a_replay_is_not_completed() -> None:
    s = nx.stream()
    graph, src, out, _ = roundtrip_graph(s)
    run = graph.replay(src, out)
    with pytest.raises(nx.StreamClosedError, match="not completed"):
        graph.close()
    src, out = run.wait()
    graph.close()
    assert graph.closed


def test_device_arrays_of_the_graph_lent_or_freed() -> None:
    s = nx.stream()
    graph, src, out, dout = roundtrip_graph(s)
    replay: Any = graph.replay  # a refused call moves nothing (the checker cannot know)
    with dout.lend(), pytest.raises(nx.BorrowError, match="writes"):
        replay(src, out)  # the graph writes dout: refused while it is lent
    dout.free()  # the graph keeps the memory alive; nobody else can see it
    gc.collect()
    refill(src, 1.0)
    src, out = graph.replay(src, out).wait()
    np.testing.assert_array_equal(out.read(), np.full(N, 3.0))


def test_inside_the_capture_nothing_runs_and_waits_are_refused() -> None:
    s, t, outside = nx.stream(), nx.stream(), nx.stream()
    src, din = filled(1.0), nx.device_array(N, F32)
    with nx.capture(s, t) as cap:
        up = s.upload(src, to=din)
        early: Any = up  # refused at run time: the checker would count it as the wait
        with pytest.raises(nx.UseAfterTransferError, match="still open"):
            early.wait()
        with pytest.raises(nx.UseAfterTransferError, match="still open"):
            up.done()
        with pytest.raises(nx.OwnershipError, match="capturing"):
            s.synchronize()
        with pytest.raises(nx.OwnershipError, match="capturing"):
            s.close()
        with pytest.raises(nx.OwnershipError, match="capturing"):
            s.upload_staged(np.ones(N, F32), to=din)
        with pytest.raises(nx.OwnershipError, match="not part of that capture"):
            s.wait_for(outside)
        with pytest.raises(nx.OwnershipError, match="still open"):
            cap.graph  # noqa: B018
        with pytest.raises(nx.OwnershipError, match="already capturing"), nx.capture(t):
            pass
        t.wait_for(s)  # inside the capture: a graph edge
        # work on another stream runs normally meanwhile
        plain = outside.upload(filled(2.0), to=nx.device_array(N, F32))
        plain.wait()
    src = up.wait()  # completes at once: nothing ran
    assert up.completed
    src.read()
    with pytest.raises(TypeError, match="at least one stream"):
        nx.capture()
    with pytest.raises(ValueError, match="twice"):
        nx.capture(s, s)


def test_an_exception_in_the_block_discards_the_capture_and_loses_nothing() -> None:
    s = nx.stream()
    src, din, out = filled(1.0), nx.device_array(N, F32), nx.pinned_array(N, F32)
    with pytest.raises(KeyboardInterrupt), nx.capture(s) as cap:
        up = s.upload(src, to=din)
        raise KeyboardInterrupt
    with pytest.raises(nx.OwnershipError, match="ended without a graph"):
        cap.graph  # noqa: B018
    src = up.wait()
    # the stream works normally again: this upload really runs
    refill(src, 6.0)
    src = s.upload(src, to=din).wait()
    out = s.download(din, into=out).wait()
    np.testing.assert_array_equal(out.read(), np.full(N, 6.0))
    s.close()


def test_a_dropped_run_warns_and_keeps_its_buffers_alive() -> None:
    s = nx.stream()
    graph, src, out, _ = roundtrip_graph(s)
    run = graph.replay(src, out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del run  # type: ignore[unfinished-transfer]
        gc.collect()
    assert sum(issubclass(w.category, ResourceWarning) for w in caught) == 2
    assert orphan_count() >= 1
    _backend.get_backend().sync_all()  # type: ignore[attr-defined]
    assert orphan_count() == 0
    graph.close()


def test_a_device_only_graph_replays_with_no_parameters() -> None:
    s = nx.stream()
    din, dout = nx.device_array(N, F32), nx.device_array(N, F32)
    s.upload(filled(2.0), to=din).wait()
    with nx.capture(s) as cap:
        s.launch(AFFINE, 1, N, din, dout)
    graph = cap.graph
    assert graph.parameters == ()
    assert graph.replay().wait() == ()
    out = s.download(dout, into=nx.pinned_array(N, F32)).wait()
    np.testing.assert_array_equal(out.read(), np.full(N, 5.0))


def test_memory_pinned_in_place_is_captured_and_replayed() -> None:
    s = nx.stream()
    data, result = np.arange(N, dtype=F32), np.zeros(N, F32)
    din, dout = nx.device_array(N, F32), nx.device_array(N, F32)
    with nx.pinned(data) as h, nx.pinned(result) as r:
        with nx.capture(s) as cap:
            up = s.upload(h, to=din)
            s.launch(AFFINE, 1, N, din, dout)
            down = s.download(dout, into=r)
        h, r = up.wait(), down.wait()
        h, r = cap.graph.replay(h, r).wait()
    np.testing.assert_array_equal(result, 2 * np.arange(N) + 1)


def _affine_step(
    s: nx.Stream[nx.Lent], a: nx.DeviceArray[nx.Owned, Any], b: nx.DeviceArray[nx.Owned, Any]
) -> None:
    s.launch(AFFINE, 1, 16, a, b)


def _copy_step(
    s: nx.Stream[nx.Lent], a: nx.DeviceArray[nx.Owned, Any], b: nx.DeviceArray[nx.Owned, Any]
) -> None:
    s.copy(a, to=b)


def test_pipeline_graph_mode_captures_once_per_size_and_owns_the_arrays() -> None:
    pipe: nx.Pipeline[np.float32] = nx.Pipeline(16, F32, slots=3, graph=True)
    n = 16 * 4 + 5  # a ragged last chunk
    src, dst = filled(np.arange(n), n), nx.pinned_array(n, F32)
    for r in range(3):
        refill(src, np.arange(n) * (r + 1))
        run = pipe.map(src, into=dst, step=_affine_step)
        with pytest.raises(nx.UseAfterTransferError):
            src.read()  # type: ignore[use-after-transfer]
        src, dst = run.wait()
        np.testing.assert_array_equal(dst.read(), 2 * np.arange(n) * (r + 1) + 1)
    assert len(pipe._graphs) == 1  # captured once
    other_src, other_dst = filled(-1.0, n), nx.pinned_array(n, F32)
    other_src, other_dst = pipe.map(other_src, into=other_dst, step=_affine_step).wait()
    np.testing.assert_array_equal(other_dst.read(), np.full(n, -1.0))
    src, dst = pipe.map(src, into=dst, step=_copy_step).wait()  # another step: captured anew
    np.testing.assert_array_equal(dst.read(), src.read())
    pipe.close()


def test_a_replay_can_be_awaited() -> None:
    import asyncio

    s = nx.stream()
    graph, src, out, _ = roundtrip_graph(s)
    refill(src, 2.0)

    async def main(src: Host, out: Host) -> tuple[Host, ...]:
        return await graph.replay(src, out)

    src, out = asyncio.run(main(src, out))
    np.testing.assert_array_equal(out.read(), np.full(N, 5.0))
