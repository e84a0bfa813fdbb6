"""Each hazard of the examples gallery, on the lazy emulator: the raw numba-style program
gives the wrong answer (deterministically: copies and kernels run only when something
forces them, the latest a GPU could run them), the numbaxfer program is refused at run
time with the exact exception, and the example's numbaxfer form is right, under the
lazy schedule and under seeded random interleavings.

The misuses are refused statically too: each carries ``# type: ignore[use-after-transfer]``
(or ``[unfinished-transfer]``), and since the project's mypy runs with
``warn_unused_ignores``, ``make typecheck`` fails if the plugin stops reporting one.

The raw programs use ``RawEmulatedCuda``: numba.cuda's calls (``stream()``, ``event()``,
``copy_to_device(..., stream=s)``, ``kernel[grid, block, s](...)``) on the emulator,
unchecked. What the emulator cannot model is said where it matters: page-locking and
unpinning are no-ops on a CPU (``cuda.pinned``/``cuda.mapped`` at block exit), and a
queued copy keeps its host buffer alive (a freed staging buffer). There the tests show
what can be shown: the copy is still queued at the moment numba unpins or frees, and
numbaxfer keeps the memory alive and pinned until the copy has run.
"""

from __future__ import annotations

import asyncio
import gc
import queue
import threading
import traceback
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._backend._emulator import EmulatorBackend, RawEmulatedCuda, Schedule
from numbaxfer._lifetime import _drain_orphans, orphan_count
from tests.examples.support import EXAMPLES_DIR, GALLERY, load

F32 = np.float32
GRID, BLOCK = 1, 64  # the examples' grid_for() for their small default sizes


@pytest.fixture(autouse=True)
def no_orphans() -> Iterator[None]:
    """Start and end with no kept-alive memory: orphan counts are exact, and memory a test
    drops on purpose (the seed bug's transfer) does not outlive it."""
    _drain_orphans()
    yield
    _drain_orphans()


@pytest.fixture
def raw(emulator_backend: EmulatorBackend) -> RawEmulatedCuda:
    """numba.cuda's calls on the lazy emulator, unchecked (what numbaxfer protects against)."""
    return RawEmulatedCuda(emulator_backend)


def kernel_of(name: str, attribute: str) -> Any:
    """The numba dispatcher of an example's kernel (unwrapping ``nx.kernel``)."""
    k = getattr(load(name), attribute)
    return k.dispatcher if isinstance(k, nx.Kernel) else k


def affine_of(n: int) -> NDArray[np.float32]:
    return 2.0 * np.arange(n, dtype=F32) + 1.0


# -- every example, the numbaxfer way, is right when copies run as late as possible -------
@pytest.mark.parametrize("name", GALLERY)
def test_example_is_right_on_the_lazy_emulator(
    name: str, emulator_backend: EmulatorBackend
) -> None:
    assert load(name).main() is not None  # main() asserts its own result
    assert emulator_backend.pending() == 0, f"{name} left work queued"


@pytest.mark.parametrize("seed", [11, 29])
def test_examples_are_right_under_random_interleavings(
    seed: int, emulator_backend: EmulatorBackend
) -> None:
    for name in GALLERY:
        backend = EmulatorBackend(Schedule.random(seed))
        _backend._current = backend  # the fixture restores the previous backend
        load(name).main()
        assert backend.pending() == 0, f"{name} left work queued"


# -- the seed: a host write while the upload still reads ------------------------------------
def test_raw_seed_write_after_upload_is_wrong(raw: RawEmulatedCuda) -> None:
    s = raw.stream()
    host = raw.pinned_array(256, F32)
    dev = raw.device_array(256, F32)
    host[:] = 1.0
    dev.copy_to_device(host, stream=s)
    host[-1] = 2.0  # numba lets the CPU write under the copy
    s.synchronize()
    assert dev.copy_to_host()[-1] == 2.0  # should be 1.0: the device got the later write


def test_numbaxfer_seed_bug_is_refused_at_the_offending_line(emulator_backend: Any) -> None:
    source = (EXAMPLES_DIR / "bugs" / "seed_bug.py").read_text().splitlines()
    bug_line = next(i for i, line in enumerate(source, 1) if "# BUG" in line)
    with pytest.warns(ResourceWarning, match="without being completed"):
        with pytest.raises(nx.UseAfterTransferError, match=r"moved into upload#\d+") as err:
            load("bugs/seed_bug").main(256)
        frames = [f for f in traceback.extract_tb(err.tb) if f.filename.endswith("seed_bug.py")]
        del err  # its traceback holds the bug's frame, whose upload is never completed
        gc.collect()
    assert frames[-1].lineno == bug_line
    assert load("seed_fixed").main(256) == 1.0


# -- early read of a download's destination (persistent_output) -----------------------------
def test_raw_early_read_of_the_persistent_output_is_stale(raw: RawEmulatedCuda) -> None:
    advance = raw.kernel(kernel_of("persistent_output", "advance"))
    s = raw.stream()
    state = raw.to_device(np.arange(256, dtype=F32))
    out = raw.pinned_array(256, F32)
    totals = []
    for _ in range(4):
        advance[GRID, BLOCK, s](state)
        state.copy_to_host(out, stream=s)
        totals.append(float(out.sum()))  # before the copy landed
    s.synchronize()
    assert totals == [0.0] * 4  # should be 32896, 33152, ...: every read was stale
    assert float(out.sum()) == 32640.0 + 4 * 256  # the data arrives, too late


def test_numbaxfer_refuses_the_early_read(emulator_backend: EmulatorBackend) -> None:
    s = nx.stream()
    state = nx.device_array(256, F32)
    out = s.upload(nx.pinned_copy(np.arange(256, dtype=F32)), to=state).wait()
    down = s.download(state, into=out)
    with pytest.raises(nx.UseAfterTransferError, match=r"cannot read\(\) .*download#"):
        out.read()  # type: ignore[use-after-transfer]
    assert emulator_backend.pending(s._core.raw) == 1  # refused, and nothing was forced
    out = down.wait()
    assert float(out.read().sum()) == 32640.0
    s.close()


# -- ping-pong double buffering ------------------------------------------------------------
def _raw_ping_pong(raw: RawEmulatedCuda, *, read_early: bool) -> NDArray[np.float32]:
    affine = raw.kernel(kernel_of("ping_pong", "affine"))
    chunks, chunk = 6, 128
    data = np.arange(chunks * chunk, dtype=F32)
    streams = [raw.stream(), raw.stream()]
    host_in = [raw.pinned_array(chunk, F32) for _ in range(2)]
    d_in = [raw.device_array(chunk, F32) for _ in range(2)]
    d_out = [raw.device_array(chunk, F32) for _ in range(2)]
    host_out = [raw.pinned_array(chunk, F32) for _ in range(chunks)]  # one per chunk
    result = np.zeros_like(data)
    for i in range(chunks):
        k = i % 2
        host_in[k][:] = data[i * chunk : (i + 1) * chunk]  # chunk i-2's upload may read it
        d_in[k].copy_to_device(host_in[k], stream=streams[k])
        affine[GRID, BLOCK, streams[k]](d_in[k], d_out[k])
        d_out[k].copy_to_host(host_out[i], stream=streams[k])
        if read_early:
            result[i * chunk : (i + 1) * chunk] = host_out[i]
    raw.synchronize()
    if not read_early:
        result[:] = np.concatenate(host_out)
    return result


def test_raw_ping_pong_refill_under_the_upload_is_wrong(raw: RawEmulatedCuda) -> None:
    result = _raw_ping_pong(raw, read_early=False)
    expected = affine_of(result.size)
    assert not np.array_equal(result, expected)
    # chunks 0 and 2 were uploaded from the buffer after chunk 4 had been written into it
    assert np.array_equal(result[:128], expected[4 * 128 : 5 * 128])


def test_raw_ping_pong_early_read_is_stale(raw: RawEmulatedCuda) -> None:
    assert (_raw_ping_pong(raw, read_early=True) == 0.0).all()


def test_numbaxfer_ping_pong_refuses_a_refill_before_finish(
    emulator_backend: EmulatorBackend,
) -> None:
    ping_pong = load("ping_pong")
    slot = ping_pong.Slot(128)
    piece = np.ones(128, dtype=F32)
    slot.start(piece, 0)
    pending = emulator_backend.pending()
    with pytest.raises(nx.UseAfterTransferError, match=r"cannot write\(\) .*download#"):
        slot.start(piece, 1)  # forgot slot.finish(): the chained download owns the buffer
    assert emulator_backend.pending() == pending  # refused before anything was enqueued
    result = np.zeros(256, dtype=F32)
    slot.finish(result)
    assert (result[:128] == 3.0).all()
    slot.close()


def test_numbaxfer_chained_download_takes_the_buffer_from_the_upload(
    emulator_backend: EmulatorBackend,
) -> None:
    """One buffer for a slot's input and output: the download chains onto the upload
    (no host wait between them). The upload cannot be waited any more, and the buffer
    comes back, holding the output, from the download alone."""
    affine = load("ping_pong").affine
    s = nx.stream()
    d_in, d_out = nx.device_array(128, F32), nx.device_array(128, F32)
    up = s.upload(nx.pinned_copy(np.arange(128, dtype=F32)), to=d_in)
    s.launch(affine, GRID, BLOCK, d_in, d_out)
    down = s.download(d_out, into=up)
    assert emulator_backend.pending(s._core.raw) == 3  # nothing forced: no host wait
    with pytest.raises(nx.UseAfterTransferError):
        up.wait()  # type: ignore[use-after-transfer]
    with pytest.raises(nx.UseAfterTransferError, match="not pending"):
        s.download(d_out, into=up)  # type: ignore[use-after-transfer]  # up was moved into down
    host = down.wait()
    assert np.array_equal(host.read(), affine_of(128))
    s.close()


# -- copy and compute streams linked by events ---------------------------------------------
def _raw_copy_compute(
    raw: RawEmulatedCuda, *, upload_event: bool, kernel_event: bool, sync_compute_first: bool
) -> NDArray[np.float32]:
    affine = raw.kernel(kernel_of("copy_compute_events", "affine"))
    n = 128
    copy_s, compute_s = raw.stream(), raw.stream()
    host_in = raw.pinned_array(n, F32)
    host_in[:] = np.arange(n, dtype=F32)
    host_out = raw.pinned_array(n, F32)
    d_in, d_out = raw.device_array(n, F32), raw.device_array(n, F32)
    uploaded, computed = raw.event(), raw.event()
    d_in.copy_to_device(host_in, stream=copy_s)
    uploaded.record(copy_s)
    if upload_event:
        uploaded.wait(compute_s)
    affine[GRID, BLOCK, compute_s](d_in, d_out)
    computed.record(compute_s)
    if kernel_event:
        computed.wait(copy_s)
    d_out.copy_to_host(host_out, stream=copy_s)
    if sync_compute_first:
        compute_s.synchronize()  # "wait for the kernel", then for the copies
    copy_s.synchronize()
    return host_out


def test_raw_copy_compute_with_both_events_is_right(raw: RawEmulatedCuda) -> None:
    out = _raw_copy_compute(raw, upload_event=True, kernel_event=True, sync_compute_first=True)
    assert np.array_equal(out, affine_of(128))


def test_raw_copy_compute_without_the_kernel_event_downloads_too_early(
    raw: RawEmulatedCuda,
) -> None:
    out = _raw_copy_compute(raw, upload_event=True, kernel_event=False, sync_compute_first=False)
    assert (out == 0.0).all()  # the download ran before the kernel


def test_raw_copy_compute_without_the_upload_event_computes_on_old_data(
    raw: RawEmulatedCuda,
) -> None:
    out = _raw_copy_compute(raw, upload_event=False, kernel_event=True, sync_compute_first=True)
    assert (out == 1.0).all()  # the kernel ran on the zeros d_in held before the upload


def test_numbaxfer_orders_copy_and_compute_streams_by_itself(
    emulator_backend: EmulatorBackend,
) -> None:
    affine = load("copy_compute_events").affine
    copy_s, compute_s = nx.stream(), nx.stream()
    d_in, d_out = nx.device_array(128, F32), nx.device_array(128, F32)
    up = copy_s.upload(nx.pinned_copy(np.arange(128, dtype=F32)), to=d_in)
    affine[GRID, BLOCK, compute_s](d_in, d_out)
    compute_s.synchronize()  # the order that broke the raw program: compute forced first
    out = copy_s.download(d_out, into=up.wait()).wait()
    assert np.array_equal(out.read(), affine_of(128))
    copy_s.close()
    compute_s.close()


def test_numbaxfer_strict_stream_refuses_an_unordered_cross_stream_use(
    emulator_backend: EmulatorBackend,
) -> None:
    affine = load("copy_compute_events").affine
    copy_s, compute_s = nx.stream(), nx.stream(strict=True)
    d_in, d_out = nx.device_array(128, F32), nx.device_array(128, F32)
    up = copy_s.upload(nx.pinned_copy(np.arange(128, dtype=F32)), to=d_in)
    with pytest.raises(nx.CrossStreamError, match=r"is strict and DeviceArray#\d+"):
        affine[GRID, BLOCK, compute_s](d_in, d_out)
    assert emulator_backend.pending(compute_s._core.raw) == 0
    up.wait()
    copy_s.close()
    compute_s.close()


# -- one big pinned array split across streams, second pass into the same slices -----------
def test_raw_second_pass_on_another_stream_reads_old_slices(raw: RawEmulatedCuda) -> None:
    square = raw.kernel(kernel_of("split_streams", "square"))
    add_one = raw.kernel(kernel_of("split_streams", "add_one"))
    n, count = 512, 4
    big = raw.pinned_array(n, F32)
    big[:] = np.arange(n, dtype=F32)
    parts = np.split(big, count)
    streams = [raw.stream() for _ in range(count)]
    d_in = [raw.device_array(n // count, F32) for _ in range(count)]
    d_out = [raw.device_array(n // count, F32) for _ in range(count)]
    for part, s, di, do in zip(parts, streams, d_in, d_out, strict=True):
        di.copy_to_device(part, stream=s)
        square[GRID, BLOCK, s](di, do)
        do.copy_to_host(part, stream=s)
    for i, part in enumerate(parts):  # second pass: slice i on stream i+1
        j = (i + 1) % count
        d_in[j].copy_to_device(part, stream=streams[j])
        add_one[GRID, BLOCK, streams[j]](d_in[j], d_out[j])
        d_out[j].copy_to_host(part, stream=streams[j])
    raw.synchronize()
    base = np.arange(n, dtype=F32)
    assert not np.array_equal(big, base * base + 1.0)
    # slice 3's passes ran in reverse order: the second (on stream 0, which ran first)
    # added one before the first (on stream 3) squared
    assert np.array_equal(big[-128:], (base[-128:] + 1.0) ** 2)


def test_raw_part_written_while_its_upload_is_queued_is_wrong(raw: RawEmulatedCuda) -> None:
    """numba: slices of one pinned array uploaded on their own streams; the CPU writes
    the end of slice 0 (the DMA reaches it last) before its copy ran."""
    square = raw.kernel(kernel_of("split_streams", "square"))
    n, count = 512, 4
    big = raw.pinned_array(n, F32)
    big[:] = np.arange(n, dtype=F32)
    parts = np.split(big, count)
    streams = [raw.stream() for _ in range(count)]
    d_in = [raw.device_array(n // count, F32) for _ in range(count)]
    d_out = [raw.device_array(n // count, F32) for _ in range(count)]
    for part, s, di, do in zip(parts, streams, d_in, d_out, strict=True):
        di.copy_to_device(part, stream=s)
        square[GRID, BLOCK, s](di, do)
    parts[0][-1] = -1.0  # "slice 0 is sent": numba lets the CPU write under its copy
    raw.synchronize()
    assert d_out[0].copy_to_host()[-1] == 1.0  # should be 127 ** 2: the later write went up


def test_numbaxfer_refuses_a_part_in_flight_and_the_second_pass_too_early(
    emulator_backend: EmulatorBackend,
) -> None:
    split = load("split_streams")
    s, t = nx.stream(), nx.stream()
    big = nx.pinned_copy(np.arange(512, dtype=F32))
    ins, outs = nx.split(nx.device_array(512, F32), 4), nx.split(nx.device_array(512, F32), 4)
    parts = nx.split(big, 4)
    with pytest.raises(nx.UseAfterTransferError, match=r"split into parts"):
        big.read()  # type: ignore[use-after-transfer]
    p0, p1, p2, p3 = parts
    up = s.upload(p0, to=ins[0])  # first pass of part 0, as split_streams.send does
    s.launch(split.square, GRID, BLOCK, ins[0], outs[0])
    down = s.download(outs[0], into=up)
    pending = emulator_backend.pending()
    with (
        pytest.raises(nx.UseAfterTransferError, match=r"cannot write\(\) .*\[0:128\]"),
        p0.write() as a,  # type: ignore[use-after-transfer]
    ):
        a[-1] = -1.0  # the raw program's write under the copy
    with pytest.raises(nx.UseAfterTransferError, match=r"\[0:128\]"):
        # second pass on another stream before part 0 is home:
        t.upload(p0, to=ins[0])  # type: ignore[use-after-transfer]
    with pytest.raises(nx.UseAfterTransferError, match=r"\[0:128\]"):
        nx.join(parts)  # part 0 is in flight (the plugin does not follow list items)
    assert emulator_backend.pending() == pending  # every refusal came before enqueueing
    with p1.write() as a:  # a sibling part is the caller's: writing it is fine
        a[:] = 0.0
    p0 = split.send(split.add_one, down.wait(), ins[0], outs[0], t).wait()
    big = nx.join([p0, p1, p2, p3])
    expected = np.arange(512, dtype=F32)
    expected[:128] = expected[:128] ** 2 + 1.0
    expected[128:256] = 0.0
    assert np.array_equal(big.read(), expected)
    s.close()
    t.close()


def test_split_streams_takes_a_ragged_last_part(emulator_backend: EmulatorBackend) -> None:
    base = np.arange(509, dtype=F32)
    assert np.array_equal(load("split_streams").main(509, 3), base * base + 1.0)


# -- a temporary staging buffer inside a function ------------------------------------------
def test_raw_staging_buffer_from_a_free_list_is_reused_under_the_copy(
    raw: RawEmulatedCuda,
) -> None:
    """The function returns its staging buffer to a caching allocator (a free list, as
    CuPy's PinnedMemoryPool does) at return; the next call refills it under the copy."""
    s = raw.stream()
    free_list = [raw.pinned_array(256, F32)]
    first, second = raw.device_array(256, F32), raw.device_array(256, F32)

    def send(a: NDArray[np.float32], dev: Any) -> None:
        staging = free_list.pop()
        staging[:] = a
        dev.copy_to_device(staging, stream=s)
        free_list.append(staging)  # "temporary": back to the pool at return

    send(np.full(256, 1.0, dtype=F32), first)
    send(np.full(256, 2.0, dtype=F32), second)
    s.synchronize()
    assert (first.copy_to_host() == 2.0).all()  # should be 1.0: the buffer was refilled


def test_raw_staging_buffer_outlives_its_function_only_in_the_queue(
    raw: RawEmulatedCuda,
) -> None:
    """With numba's own pinned_array, the buffer's last reference goes when ``send``
    returns, with the copy still queued (numba then queues a deferred cuMemFreeHost).
    The emulator cannot show the free (its queued copy holds the array); it shows the
    copy still pending at that moment, and the buffer reachable from nothing of the
    program's."""
    s = raw.stream()
    dev = raw.device_array(256, F32)
    refs: list[weakref.ref[NDArray[Any]]] = []

    def send(a: NDArray[np.float32]) -> None:
        staging = raw.pinned_array(a.shape, a.dtype)
        staging[:] = a
        dev.copy_to_device(staging, stream=s)
        refs.append(weakref.ref(staging))

    send(np.arange(256, dtype=F32))
    gc.collect()
    assert raw.backend.pending(s.raw) == 1  # numba frees here; the copy has not run
    assert refs[0]() is not None  # only the emulator's queue keeps it
    s.synchronize()
    gc.collect()
    assert refs[0]() is None


def test_numbaxfer_dropped_staging_transfer_warns_and_keeps_the_buffer(
    emulator_backend: EmulatorBackend,
) -> None:
    send = load("staging_function").send
    s = nx.stream()
    dev = nx.device_array(256, F32)
    before = orphan_count()
    with pytest.warns(ResourceWarning, match="without being completed"):
        send(np.arange(256, dtype=F32), dev, s)  # mypy: [unfinished-transfer]
        gc.collect()
    assert orphan_count() == before + 1  # alive, unreachable, until the copy has run
    out = s.download(dev, into=nx.pinned_array(256, F32)).wait()  # runs the upload first
    assert np.array_equal(out.read(), np.arange(256, dtype=F32))
    assert orphan_count() == before
    s.close()


# -- a staging buffer refilled in a loop ---------------------------------------------------
def test_raw_refilled_staging_buffer_is_wrong(raw: RawEmulatedCuda) -> None:
    accumulate = raw.kernel(kernel_of("staging_loop", "accumulate"))
    s = raw.stream()
    staging = raw.pinned_array(128, F32)
    d = raw.device_array(128, F32)
    acc = raw.to_device(np.zeros(128, dtype=F32))
    pieces = [np.arange(128, dtype=F32) + (i + 1) for i in range(5)]
    for piece in pieces:
        staging[:] = piece  # the previous upload has not read it yet
        d.copy_to_device(staging, stream=s)
        accumulate[GRID, BLOCK, s](d, acc)
    s.synchronize()
    assert np.array_equal(acc.copy_to_host(), 5 * pieces[-1])  # the last piece, 5 times


def test_numbaxfer_refuses_the_refill_before_the_wait(emulator_backend: EmulatorBackend) -> None:
    s = nx.stream()
    staging = nx.pinned_array(128, F32)
    dev = nx.device_array(128, F32)
    up = s.upload(staging, to=dev)
    with pytest.raises(nx.UseAfterTransferError, match=r"cannot write\(\) .*upload#"):
        staging.write()  # type: ignore[use-after-transfer]
    staging = up.wait()
    with staging.write() as a:  # the fix: take it back, then refill
        a[:] = 1.0
    s.upload(staging, to=dev).wait()
    s.close()


def test_raw_short_last_piece_without_a_length_adds_the_previous_tail(
    raw: RawEmulatedCuda,
) -> None:
    """The short last piece the numba way without a length argument: the kernel runs
    over the whole staging buffer, whose tail still holds the previous piece."""
    accumulate = raw.kernel(kernel_of("staging_loop", "accumulate"))
    s = raw.stream()
    staging = raw.pinned_array(128, F32)
    d = raw.device_array(128, F32)
    acc = raw.to_device(np.zeros(128, dtype=F32))
    for piece in (np.ones(128, dtype=F32), np.full(100, 2.0, dtype=F32)):
        s.synchronize()  # no race here: the refill waits for the previous upload
        staging[: piece.size] = piece
        d.copy_to_device(staging, stream=s)
        accumulate[GRID, BLOCK, s](d, acc)
    s.synchronize()
    assert (acc.copy_to_host()[100:] == 2.0).all()  # should be 1.0: the old tail added


def test_numbaxfer_short_last_piece_parts_are_refused_until_home(
    emulator_backend: EmulatorBackend,
) -> None:
    staging_loop = load("staging_loop")
    s = nx.stream()
    rows = [0, 100, 128]
    parts = nx.split(nx.pinned_array(128, F32), bounds=rows)
    head, rest = parts
    d_head, d_rest = nx.split(nx.device_array(128, F32), bounds=rows)
    up = s.upload(head, to=d_head)
    with pytest.raises(nx.UseAfterTransferError, match=r"\[0:100\]"):
        nx.join(parts)  # the head is in flight (the plugin does not follow list items)
    with rest.write() as a:  # the rest of the buffer is the caller's meanwhile
        a[:] = 0.0
    staging = nx.join([up.wait(), rest])
    assert staging.size == 128 and nx.join([d_head, d_rest]).size == 128
    assert staging_loop.main(300, 128).size == 128  # main() asserts its own result
    assert staging_loop.main(256, 128).size == 128  # no short piece: no split
    s.close()


# -- an event-gated pool drained by a watcher thread ---------------------------------------
def test_raw_pool_with_an_event_recorded_too_early_is_stale(raw: RawEmulatedCuda) -> None:
    affine = raw.kernel(kernel_of("pool_watcher", "affine"))
    steps, n = 6, 128
    s = raw.stream()
    dev_in, dev_out = raw.device_array(n, F32), raw.device_array(n, F32)
    free: queue.Queue[NDArray[np.float32]] = queue.Queue()
    for _ in range(2):
        free.put(raw.pinned_array(n, F32))
    inflight: queue.Queue[tuple[int, NDArray[np.float32], Any] | None] = queue.Queue()
    results: dict[int, float] = {}

    def watcher() -> None:
        while (item := inflight.get()) is not None:
            step, buf, ev = item
            ev.synchronize()
            results[step] = float(buf.sum())
            free.put(buf)

    thread = threading.Thread(target=watcher)
    thread.start()
    for step in range(steps):
        staging = raw.pinned_array(n, F32)  # a fresh one each step: no refill hazard here
        staging[:] = float(step)
        dev_in.copy_to_device(staging, stream=s)
        affine[GRID, BLOCK, s](dev_in, dev_out)
        buf = free.get()
        ev = raw.event()
        ev.record(s)  # one line too early: before the copy it should cover
        dev_out.copy_to_host(buf, stream=s)
        inflight.put((step, buf, ev))
    inflight.put(None)
    thread.join()
    raw.synchronize()
    # Each read saw what the buffer held before its own download: zeros for the first
    # two steps, then the result of two steps earlier (the buffer's previous use).
    expected = [float((2 * k + 1) * n) for k in range(steps)]
    assert [results[k] for k in range(steps)] == [0.0, 0.0, *expected[:-2]]


def test_numbaxfer_pool_refuses_a_buffer_after_it_went_back(
    emulator_backend: EmulatorBackend,
) -> None:
    s = nx.stream()
    dev = nx.device_array(128, F32)
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, 128, F32)
    buf = pool.take()
    assert buf is not None
    pool.recycle(s.upload(buf, to=dev))
    with pytest.raises(nx.UseAfterTransferError, match=r"upload#"):
        # the pool owns it, with its copy:
        buf.write()  # type: ignore[use-after-transfer]
    other = pool.take()
    assert other is not None
    pool.give(other)
    with pytest.raises(nx.UseAfterTransferError, match="given back to its PinnedPool"):
        other.read()  # type: ignore[use-after-transfer]
    with pytest.raises(ValueError, match="not one of this pool"):
        pool.give(nx.pinned_array(128, F32))
    pool.drain()
    s.close()


def test_numbaxfer_pool_take_waits_for_a_buffer_given_back_by_another_thread(
    emulator_backend: EmulatorBackend,
) -> None:
    """What pool_watcher.py relies on: with every buffer out with the watcher, take()
    blocks until the watcher gives one back (try_take() says None meanwhile)."""
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(1, 128, F32)
    out = pool.take()
    assert pool.try_take() is None
    handed: queue.Queue[nx.PinnedArray[nx.Owned, np.float32]] = queue.Queue()
    watcher = threading.Thread(target=lambda: pool.give(handed.get()))
    watcher.start()
    handed.put(out)  # out moves to the watcher, which gives it back
    again = pool.take(timeout=10.0)
    watcher.join()
    with again.write() as a:
        a[:] = 1.0
    pool.give(again)
    pool.grow(1)
    assert len(pool) == 2 and pool.count == 2


# -- mapped zero-copy memory ---------------------------------------------------------------
def _alloc_mapped(backend: EmulatorBackend, n: int) -> tuple[NDArray[np.float32], Any]:
    if not hasattr(backend, "alloc_mapped"):
        pytest.skip("this emulator has no alloc_mapped (mapped memory is being added)")
    host, device = backend.alloc_mapped((n,), np.dtype(F32))
    return host, device


def test_raw_mapped_output_read_while_the_kernels_run_is_stale(raw: RawEmulatedCuda) -> None:
    affine = raw.kernel(kernel_of("mapped_zero_copy", "affine"))
    add_one = raw.kernel(kernel_of("mapped_zero_copy", "add_one"))
    inp, inp_dev = _alloc_mapped(raw.backend, 256)
    out, out_dev = _alloc_mapped(raw.backend, 256)
    inp[:] = np.arange(256, dtype=F32)
    out[:] = 0.0
    a, b = raw.stream(), raw.stream()
    affine[GRID, BLOCK, a](inp_dev, out_dev)
    done_a = raw.event()
    done_a.record(a)
    done_a.wait(b)
    add_one[GRID, BLOCK, b](out_dev)
    assert (out == 0.0).all()  # read while the kernels are queued: stale
    a.synchronize()  # the wrong stream: b's kernel has not run
    assert np.array_equal(out, affine_of(256))  # should be affine + 1
    b.synchronize()
    assert np.array_equal(out, affine_of(256) + 1.0)


def test_raw_mapped_scope_ends_with_the_kernel_queued(raw: RawEmulatedCuda) -> None:
    """``with cuda.mapped(arr) as d:`` unmaps at block exit. The emulator cannot map or
    unmap memory (it has no page tables); it shows the kernel still queued when the block
    ends, and the host array read after the block: stale."""
    affine = raw.kernel(kernel_of("mapped_zero_copy", "affine"))
    arr, device = _alloc_mapped(raw.backend, 256)
    arr[:] = np.arange(256, dtype=F32)
    s = raw.stream()

    @contextmanager
    def mapped() -> Iterator[Any]:  # numba's cuda.mapped: no wait at exit
        yield device

    with mapped() as d:
        affine[GRID, BLOCK, s](d, d)
    assert raw.backend.pending(s.raw) == 1  # unmapped here, with the kernel queued
    assert np.array_equal(arr, np.arange(256, dtype=F32))  # should be affine: stale
    s.synchronize()


def test_numbaxfer_mapped_memory_is_refused_until_the_mapping_is_waited(
    emulator_backend: EmulatorBackend,
) -> None:
    _alloc_mapped(emulator_backend, 1)  # skips where the emulator has no mapped memory
    mapped_zero_copy = load("mapped_zero_copy")
    a, b = nx.stream(), nx.stream()
    out = nx.mapped_array(256, F32)
    with out.write() as view:
        view[:] = 0.0  # mapped memory comes uninitialized
    mapping = a.map(out)
    mapped_zero_copy.add_one[GRID, BLOCK, a](mapping.device)
    mapped_zero_copy.add_one[GRID, BLOCK, b](mapping.device)
    with pytest.raises(nx.UseAfterTransferError, match=r"cannot read\(\) .*map"):
        out.read()  # type: ignore[use-after-transfer]
    a.synchronize()  # the wrong stream, as in the raw program: changes nothing here
    out = mapping.wait()  # waits for a and b
    assert (out.read() == 2.0).all()
    with pytest.raises(nx.UseAfterTransferError):
        mapped_zero_copy.add_one[GRID, BLOCK, a](mapping.device)  # type: ignore[use-after-transfer]  # ended
    a.close()
    b.close()


def test_numbaxfer_mapped_in_place_refuses_to_end_under_the_kernel(
    emulator_backend: EmulatorBackend,
) -> None:
    """numbaxfer's side of ``cuda.mapped`` ending with the kernel queued (the raw test
    above): ``nx.mapped`` raises at block exit and keeps the memory mapped and alive
    until the kernel has run; the example's form (wait inside the block) is right."""
    mapped_zero_copy = load("mapped_zero_copy")
    arr = np.arange(256, dtype=F32)
    s = nx.stream()
    before = orphan_count()
    with (  # type: ignore[unfinished-transfer]
        pytest.raises(nx.UnfinishedTransferError, match="mapping"),
        nx.mapped(arr) as m,
    ):
        mapping = s.map(m)
        mapped_zero_copy.affine[GRID, BLOCK, s](mapping.device, mapping.device)
    assert orphan_count() == before + 1 and emulator_backend.pending(s._core.raw) == 1
    assert np.array_equal(arr, np.arange(256, dtype=F32))  # the kernel has not run
    mapping.wait()
    assert np.array_equal(arr, affine_of(256)) and orphan_count() == before
    arr = np.arange(256, dtype=F32)
    mapped_zero_copy.in_place(arr, s)
    assert np.array_equal(arr, affine_of(256))
    s.close()


# -- asyncio tasks -------------------------------------------------------------------------
def test_raw_asyncio_task_reads_after_yielding_not_waiting(raw: RawEmulatedCuda) -> None:
    scale = raw.kernel(kernel_of("asyncio_streams", "scale"))

    async def job(value: float) -> float:
        s = raw.stream()
        host = raw.pinned_array(128, F32)
        host[:] = value
        dev = raw.device_array(128, F32)
        dev.copy_to_device(host, stream=s)
        scale[GRID, BLOCK, s](dev, 3.0)
        dev.copy_to_host(host, stream=s)
        await asyncio.sleep(0)  # other tasks run; the copies do not
        return float(host.sum())

    async def run_all() -> list[float]:
        return list(await asyncio.gather(*(job(float(i)) for i in range(4))))

    results = asyncio.run(run_all())
    assert results == [float(i * 128) for i in range(4)]  # should be 3 * i * 128: unscaled
    raw.synchronize()


def test_numbaxfer_asyncio_refuses_the_read_before_the_await(
    emulator_backend: EmulatorBackend,
) -> None:
    async def job() -> float:
        s = nx.stream()
        dev = nx.device_array(128, F32)
        host = await s.upload(nx.pinned_copy(np.ones(128, dtype=F32)), to=dev)
        down = s.download(dev, into=host)
        await asyncio.sleep(0)
        with pytest.raises(nx.UseAfterTransferError, match=r"download#"):
            host.read()  # type: ignore[use-after-transfer]
        host = await down
        s.close()
        return float(host.read().sum())

    assert asyncio.run(job()) == 128.0


# -- pageable memory with stream= ----------------------------------------------------------
def test_numbaxfer_refuses_pageable_memory_before_enqueuing(
    emulator_backend: EmulatorBackend,
) -> None:
    """No raw counterpart: on a GPU the driver stages pageable memory synchronously, so
    numba's program is slow rather than wrong, and the emulator does not model pageable
    memory. What numbaxfer does is refuse, and both fixes are right."""
    pageable = load("pageable")
    s = nx.stream()
    dev = nx.device_array(256, F32)
    a = np.arange(256, dtype=F32)
    with pytest.raises(nx.PageableMemoryError, match=r"nx\.pinned_copy\(array\)"):
        pageable_array = np.ones(256, dtype=F32)
        s.upload(pageable_array, to=dev)  # type: ignore[arg-type]
    assert issubclass(nx.PageableMemoryError, TypeError)
    # the example's helpers catch and return the messages (mypy never sees the type)
    assert "upload(): src is an ordinary numpy array" in pageable.upload_refusal(a, dev, s)
    assert "download(): into is an ordinary numpy array" in pageable.download_refusal(dev, a, s)
    assert emulator_backend.pending() == 0 and np.array_equal(a, np.arange(256, dtype=F32))
    assert np.array_equal(pageable.fix_with_pinned_copy(a, dev, s), affine_of(256))
    pageable.fix_with_pinned_scope(a, dev, s)
    assert np.array_equal(a, affine_of(256))
    s.close()


def test_numbaxfer_staged_upload_lets_the_pageable_array_be_reused_at_once(
    emulator_backend: EmulatorBackend,
) -> None:
    """The lazy emulator runs the DMA late; the staged upload still gets the values the
    array had at the call (they were copied into the staging buffer then)."""
    pageable = load("pageable")
    s = nx.stream()
    dev = nx.device_array(256, F32)
    a = np.arange(256, dtype=F32)
    s.upload_staged(a, to=dev)
    a[:] = -1.0  # reused at once, the copy still queued
    assert emulator_backend.pending(s._core.raw) == 1
    out = s.download(dev, into=nx.pinned_array(256, F32)).wait()
    assert np.array_equal(out.read(), np.arange(256, dtype=F32))
    b = np.arange(256, dtype=F32)
    assert np.array_equal(pageable.small_upload_staged(b, dev, s), affine_of(256))
    s.close()


# -- scoped pinning: cuda.pinned unpins at block exit --------------------------------------
def test_raw_pinned_scope_ends_with_the_copies_queued(raw: RawEmulatedCuda) -> None:
    """``with cuda.pinned(a):`` unpins at block exit (numba: cuMemHostUnregister at once).
    Unpinning is a no-op on the emulator; it shows both copies still queued when the
    block ends, and the program's read of ``a`` after the block: stale."""
    affine = raw.kernel(kernel_of("scoped_pinning", "affine"))
    a = np.arange(256, dtype=F32)
    s = raw.stream()

    @contextmanager
    def pinned(array: NDArray[Any]) -> Iterator[None]:  # numba's cuda.pinned
        pin = raw.backend.pin(array)
        yield
        del pin

    with pinned(a):
        d = raw.to_device(a, stream=s)
        affine[GRID, BLOCK, s](d)
        d.copy_to_host(a, stream=s)
    assert raw.backend.pending(s.raw) == 3  # unpinned here; upload, kernel, download queued
    assert np.array_equal(a, np.arange(256, dtype=F32))  # should be 2a + 1: stale
    s.synchronize()
    assert np.array_equal(a, affine_of(256))


def test_numbaxfer_pinned_scope_refuses_to_end_under_a_copy(
    emulator_backend: EmulatorBackend,
) -> None:
    a = np.arange(256, dtype=F32)
    s = nx.stream()
    dev = nx.device_array(256, F32)
    before = orphan_count()
    with (  # type: ignore[unfinished-transfer]
        pytest.raises(nx.UnfinishedTransferError, match=r"unfinished transfer\(s\).*download#"),
        nx.pinned(a) as h,
    ):
        h = s.upload(h, to=dev).wait()
        down = s.download(dev, into=h)  # the block ends before down.wait()
    assert orphan_count() == before + 1  # still pinned and alive: the copy has not run
    assert emulator_backend.pending(s._core.raw) == 1
    late = down.wait()
    assert np.array_equal(a, np.arange(256, dtype=F32))  # the download did land in a
    with pytest.raises(nx.BorrowError, match=r"nx.pinned\(\) block that ended"):
        late.read()  # the scope is over: a belongs to the caller again
    assert orphan_count() == before
    s.close()


# -- auto_synchronize skips its sync when the block raises ---------------------------------
@contextmanager
def auto_synchronize(stream: Any) -> Iterator[Any]:
    """numba's ``Stream.auto_synchronize``, verbatim: no try/finally."""
    yield stream
    stream.synchronize()


def test_raw_auto_synchronize_skips_its_sync_on_an_exception(raw: RawEmulatedCuda) -> None:
    s = raw.stream()
    dev = raw.to_device(np.full(256, 5.0, dtype=F32))
    out = raw.pinned_array(256, F32)
    seen = -1.0
    try:
        with auto_synchronize(s):
            dev.copy_to_host(out, stream=s)
            raise ValueError("validation failed")
    except ValueError:
        seen = float(out.sum())  # the handler believes the stream was synchronized
    assert seen == 0.0  # should be 1280.0: the copy had not run
    assert raw.backend.pending(s.raw) == 1
    s.synchronize()


def test_numbaxfer_refuses_the_read_in_the_handler(emulator_backend: EmulatorBackend) -> None:
    s = nx.stream()
    dev = nx.device_array(256, F32)
    out = s.upload(nx.pinned_copy(np.full(256, 5.0, dtype=F32)), to=dev).wait()
    down = s.download(dev, into=out)
    try:
        raise ValueError("validation failed")
    except ValueError:
        with pytest.raises(nx.UseAfterTransferError, match=r"download#"):
            out.read()  # type: ignore[use-after-transfer]
    out = down.wait()
    assert float(out.read().sum()) == 1280.0
    s.close()


def test_numbaxfer_escaping_exception_keeps_the_buffer_alive(
    emulator_backend: EmulatorBackend,
) -> None:
    s = nx.stream()
    dev = nx.device_array(256, F32)
    out = nx.pinned_array(256, F32)
    buffer = weakref.ref(out._buf.base if out._buf.base is not None else out._buf)
    before = orphan_count()

    def fetch(out: nx.PinnedArray[nx.Owned, np.float32]) -> None:
        down = s.download(dev, into=out)  # noqa: F841  (dropped by the exception)
        raise ValueError("validation failed")

    with pytest.warns(ResourceWarning, match="without being completed"):
        with pytest.raises(ValueError):
            fetch(out)
        del out
        gc.collect()
    assert buffer() is not None and orphan_count() == before + 1  # alive, unreachable
    s.synchronize()
    assert orphan_count() == before
    gc.collect()
    assert buffer() is None
    s.close()
