"""The emulator's schedules: lazy, eager and seeded random interleavings that respect
CUDA's stream and event ordering; and the unchecked raw facade."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._backend._emulator import EmulatorBackend, RawEmulatedCuda, Schedule

F64 = np.dtype(np.float64)


@cuda.jit
def add_one(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1.0


def device_value(buf: Any) -> float:
    """Peek at device memory without forcing anything."""
    return float(buf._ary[0])


# -- choosing a schedule -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("lazy", Schedule("lazy")),
        ("eager", Schedule("eager")),
        ("random:7", Schedule("random", 7)),
        (" Random:0x10 ", Schedule("random", 16)),
    ],
)
def test_schedule_parses(text: str, expected: Schedule) -> None:
    assert Schedule.parse(text) == expected
    assert Schedule.parse(str(expected)) == expected


def test_random_without_a_seed_draws_one_and_names_it() -> None:
    schedule = Schedule.parse("random")
    assert schedule.kind == "random" and schedule.seed is not None
    assert f"seed {schedule.seed}" in EmulatorBackend(schedule).describe()


@pytest.mark.parametrize("text", ["", "lazy:1", "random:x", "eventually"])
def test_bad_schedule_is_refused_with_the_choices(text: str) -> None:
    with pytest.raises(ValueError, match=r"lazy .*eager, random or random:SEED"):
        Schedule.parse(text)


def test_environment_picks_the_schedule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBAXFER_EMULATOR_SCHEDULE", "random:5")
    assert EmulatorBackend().schedule == Schedule("random", 5)
    backend = _backend.set_backend("emulator")
    assert isinstance(backend, EmulatorBackend) and backend.schedule.seed == 5
    monkeypatch.delenv("NUMBAXFER_EMULATOR_SCHEDULE")
    assert EmulatorBackend().schedule == Schedule("lazy")


# -- lazy and eager ------------------------------------------------------------------------
def test_lazy_runs_nothing_until_forced_and_then_only_what_is_needed() -> None:
    b = EmulatorBackend("lazy", trace=True)
    s = b.new_stream()
    host = np.full(4, 1.0)
    dev = b.alloc_device((4,), F64)
    b.copy_htod(s, dev, host)
    first = b.record(s)
    b.launch(s, add_one, 1, 4, [dev])
    host[:] = 9.0  # the copy has not read it yet
    assert b.pending() == 2 and device_value(dev) == 0.0
    assert b.query(first) is False  # "not yet", once
    assert b.query(first) is True  # then it runs what the event captured, no more
    assert device_value(dev) == 9.0 and b.pending(s) == 1
    b.sync_stream(s)
    assert device_value(dev) == 10.0
    assert b.trace == ["emulated stream 1#1 copy_htod", "emulated stream 1#3 launch add_one"]


def test_eager_runs_everything_as_it_is_enqueued() -> None:
    b = EmulatorBackend("eager")
    s = b.new_stream()
    host = np.full(4, 1.0)
    dev = b.alloc_device((4,), F64)
    b.copy_htod(s, dev, host)
    host[:] = 9.0
    assert device_value(dev) == 1.0 and b.pending() == 0
    assert b.query(b.record(s)) is True


def test_a_cross_stream_wait_forces_the_work_it_waits_for() -> None:
    b = EmulatorBackend("lazy")
    producer, consumer = b.new_stream(), b.new_stream()
    dev = b.alloc_device((4,), F64)
    out = np.zeros(4)
    b.copy_htod(producer, dev, np.full(4, 5.0))
    b.wait_event(consumer, b.record(producer))
    b.copy_dtoh(consumer, out, dev)
    b.sync_stream(consumer)
    assert out[0] == 5.0 and b.pending() == 0


def test_a_closed_stream_refuses_work_but_runs_what_it_has() -> None:
    b = EmulatorBackend("lazy")
    s = b.new_stream()
    dev = b.alloc_device((4,), F64)
    b.copy_htod(s, dev, np.full(4, 2.0))
    tail = b.record(s)
    b.close_stream(s)
    with pytest.raises(RuntimeError, match="destroyed"):
        b.copy_htod(s, dev, np.zeros(4))
    b.sync_event(tail)
    assert device_value(dev) == 2.0


# -- random interleavings ----------------------------------------------------------------
def random_program(b: EmulatorBackend, rng: random.Random) -> dict[int, tuple[str, int]]:
    """Enqueue random copies, records, cross-stream waits and queries on three streams,
    then run everything. Returns each wait's seq -> (waited stream, event seq)."""
    streams = [b.new_stream() for _ in range(3)]
    dev = b.alloc_device((1,), F64)
    events: list[Any] = []
    waits: dict[int, tuple[str, int]] = {}
    for _ in range(30):
        s = rng.choice(streams)
        roll = rng.random()
        if roll < 0.2 and events:
            event = rng.choice(events)
            b.wait_event(s, event)
            waits[b._seq] = (event.stream.label, event.seq)
        elif roll < 0.35:
            events.append(b.record(s))
        elif roll < 0.45 and events:
            b.query(rng.choice(events))
        else:
            b.copy_htod(s, dev, np.zeros(1))
    b.sync_all()
    return waits


def test_random_schedules_respect_stream_and_event_order() -> None:
    traces = set()
    for seed in range(60):
        b = EmulatorBackend(Schedule.random(seed), trace=True)
        waits = random_program(b, random.Random(seed))
        assert b.trace is not None and b.pending() == 0
        ran = [(label, int(rest.split()[0])) for label, rest in (t.split("#") for t in b.trace)]
        position = {seq: i for i, (_, seq) in enumerate(ran)}
        for label in {label for label, _ in ran}:  # stream order
            seqs = [seq for lab, seq in ran if lab == label]
            assert seqs == sorted(seqs), (seed, label)
        for wait_seq, (label, event_seq) in waits.items():  # event order
            before = [seq for lab, seq in ran if lab == label and seq < event_seq]
            assert all(position[q] < position[wait_seq] for q in before), (seed, wait_seq)
        traces.add(tuple(b.trace))
    assert len(traces) > 50, "random schedules should interleave differently"


def test_a_random_schedule_is_reproducible_from_its_seed() -> None:
    def trace(seed: int) -> list[str]:
        b = EmulatorBackend(f"random:{seed}", trace=True)
        random_program(b, random.Random(0))
        assert b.trace is not None
        return b.trace

    assert trace(3) == trace(3)
    assert len({tuple(trace(s)) for s in range(8)}) > 1


def test_random_wait_for_runs_work_in_event_order() -> None:
    """A stream blocked on an event that has not been reached does not advance."""
    for seed in range(100):
        b = EmulatorBackend(Schedule.random(seed))
        producer, consumer = b.new_stream(), b.new_stream()
        dev = b.alloc_device((4,), F64)
        out = np.zeros(4)
        b.copy_htod(producer, dev, np.full(4, 1.0))
        b.launch(producer, add_one, 1, 4, [dev])
        b.wait_event(consumer, b.record(producer))
        b.copy_dtoh(consumer, out, dev)
        done = b.record(consumer)
        polls = 0
        while not b.query(done):
            polls += 1
            assert out[0] == 0.0  # not done: the download has not run
        assert polls <= 3 and out[0] == 2.0, seed


def test_random_query_answers_true_only_when_done() -> None:
    for seed in range(50):
        b = EmulatorBackend(Schedule.random(seed))
        s = b.new_stream()
        out = np.zeros(2)
        dev = b.alloc_device((2,), F64)
        b.copy_htod(s, dev, np.full(2, 4.0))
        b.copy_dtoh(s, out, dev)
        event = b.record(s)
        answers = [b.query(event) for _ in range(5)]
        assert answers[-1] is True
        assert out[0] == 4.0
        first_true = answers.index(True)
        assert all(answers[first_true:])


def test_handles_run_on_every_schedule() -> None:
    for schedule in ["lazy", "eager", "random:1", "random:2"]:
        _backend._current = EmulatorBackend(schedule)
        a, b = nx.stream(), nx.stream()
        dev = nx.device_array(8, np.float64)
        host = nx.pinned_copy(np.arange(8.0))
        up = a.upload(host, to=dev)
        b.launch(add_one, 1, 8, dev)
        out = b.download(dev, into=nx.pinned_array(8, np.float64)).wait()
        assert (out.read() == np.arange(8.0) + 1).all(), schedule
        up.wait()
        a.close()
        b.close()


# -- the raw facade: numba's calls, unchecked, with CUDA's timing --------------------------
def test_raw_seed_program_is_wrong_when_lazy_and_right_when_eager() -> None:
    def seed_program(cuda_: RawEmulatedCuda) -> float:
        s = cuda_.stream()
        host = cuda_.pinned_array(16)
        dev = cuda_.device_array(16)
        host[:] = 1.0
        dev.copy_to_device(host, stream=s)
        host[-1] = 2.0
        s.synchronize()
        return float(dev.copy_to_host()[-1])

    assert seed_program(RawEmulatedCuda(EmulatorBackend("lazy"))) == 2.0
    assert seed_program(RawEmulatedCuda(EmulatorBackend("eager"))) == 1.0


def test_raw_default_stream_copies_wait_for_every_stream() -> None:
    raw = RawEmulatedCuda(EmulatorBackend("lazy"))
    s = raw.stream()
    dev = raw.to_device(np.zeros(4))
    dev.copy_to_device(np.full(4, 3.0), stream=s)
    assert raw.backend.pending() == 1
    assert dev.copy_to_host()[0] == 3.0  # stream 0: the legacy default stream
    assert raw.backend.pending() == 0


def test_raw_events_and_kernels() -> None:
    raw = RawEmulatedCuda(EmulatorBackend("lazy"))
    a, b = raw.stream(), raw.stream()
    dev = raw.device_array(4)
    out = raw.pinned_array(4)
    dev.copy_to_device(np.full(4, 1.0), stream=a)
    raw.kernel(add_one)[1, 4, a](dev)
    ready = raw.event()
    ready.record(a)
    ready.wait(b)  # b waits for a on the device
    dev.copy_to_host(out, stream=b)
    finished = raw.event()
    finished.record(b)
    assert out[0] == 0.0 and not finished.query()
    finished.synchronize()
    assert out[0] == 2.0 and finished.query() and ready.query()
    raw.kernel(add_one)[1, 4](dev)  # default stream: at once
    assert dev.copy_to_host()[0] == 3.0
    assert (dev.shape, dev.dtype, dev.size) == ((4,), F64, 4)


def test_raw_streams_without_an_event_race() -> None:
    raw = RawEmulatedCuda(EmulatorBackend("lazy"))
    a, b = raw.stream(), raw.stream()
    dev = raw.device_array(4)
    out = raw.pinned_array(4)
    dev.copy_to_device(np.full(4, 7.0), stream=a)
    dev.copy_to_host(out, stream=b)  # numba does not order b after a
    b.synchronize()
    assert out[0] == 0.0
    raw.synchronize()
    assert out[0] == 0.0 and dev.copy_to_host()[0] == 7.0
