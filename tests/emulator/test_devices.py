"""Several devices on one host, on the lazy emulator (2 devices unless a test says).

Placement (``device=``), the errors of a call that mixes devices (each message checked,
nothing enqueued), peer and staged copies between devices, cross-device ordering (the
raw emulator ops race; numbaxfer's event waits make them right), strict refusal, and the
multi-device Pipeline.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._backend._emulator import EmulatorBackend
from numbaxfer._staging import staging_area
from tests.kernels import add_one, scale_into

N = 32
HERE = __file__
scale = nx.kernel(reads=["src"], writes=["dst"])(scale_into)


@pytest.fixture(autouse=True)
def two_devices() -> Iterator[None]:
    with nx.use_backend("emulator", devices=2):
        yield


def filled(value: float, s: nx.Stream[Any], device: int | None = None) -> Any:
    dev = nx.device_array(N, np.float32, device=device)
    s.upload(nx.pinned_copy(np.full(N, value, np.float32)), to=dev).wait()
    return dev


def fetch(s: nx.Stream[Any], dev: Any) -> Any:
    return s.download(dev, into=nx.pinned_array(dev.shape, dev.dtype)).wait().read()


# -- placement -------------------------------------------------------------------------
def test_device_count_follows_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert nx.device_count() == 2
    with nx.use_backend("emulator", devices=3):
        assert nx.device_count() == 3
    monkeypatch.setenv("NUMBAXFER_EMULATOR_DEVICES", "4")
    with nx.use_backend("emulator"):
        assert nx.device_count() == 4
    monkeypatch.delenv("NUMBAXFER_EMULATOR_DEVICES")
    assert EmulatorBackend().device_count() == 2  # the documented default


def test_a_bad_device_setting_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBAXFER_EMULATOR_DEVICES", "two")
    with pytest.raises(ValueError, match=r"NUMBAXFER_EMULATOR_DEVICES='two'.*int >= 1"):
        EmulatorBackend()
    with pytest.raises(ValueError, match="devices=0"):
        EmulatorBackend(devices=0)
    with pytest.raises(ValueError, match="options of the emulator backend only"):
        nx.use_backend("numba", devices=2)


def test_handles_remember_their_device() -> None:
    s0, s1 = nx.stream(), nx.stream(device=1)
    one: Any = np.int64(1)  # numpy integers are device ordinals too
    a, b = nx.device_array(N, np.float32), nx.device_array(N, np.float32, device=one)
    assert (s0.device, s1.device, a.device, b.device) == (0, 1, 0, 1)
    assert nx.stream(device=0)._backend is s0._backend  # device 0 is the current device
    assert "@dev1" in s1.label and "@dev" not in s0.label
    with b.lend() as view:
        assert view.device == 1


@pytest.mark.parametrize(
    ("device", "error", "words"),
    [
        (2, ValueError, r"device=2 does not exist: .* has 2 device\(s\) \(devices 0 to 1\)"),
        (-1, ValueError, r"device=-1 does not exist"),
        (True, TypeError, r"device= takes a device ordinal .* not True \(bool\)"),
        ("1", TypeError, r"not '1' \(str\)"),
        (1.0, TypeError, r"not 1.0 \(float\)"),
    ],
)
def test_a_device_that_does_not_exist_is_refused(device: Any, error: type, words: str) -> None:
    for make in (
        lambda: nx.stream(device=device),
        lambda: nx.device_array(N, np.float32, device=device),
        lambda: nx.Pipeline(8, np.float32, devices=[device]),
    ):
        with pytest.raises(error, match=words) as info:
            make()
        assert f"{HERE}:" in str(info.value)  # says where


def test_one_device_host_refuses_device_1() -> None:
    with nx.use_backend("emulator", devices=1):
        assert nx.device_count() == 1
        assert nx.stream(device=0).device == 0
        with pytest.raises(ValueError, match=r"device=1 does not exist.*\(device 0 only\)"):
            nx.device_array(N, np.float32, device=1)


# -- calls that mix devices: refused before anything is enqueued ----------------------
def test_launch_with_an_array_of_another_device_is_refused() -> None:
    s0 = nx.stream()
    a = filled(1.0, s0)
    b = nx.device_array(N, np.float32, device=1)
    backend = s0._backend
    before = backend.pending()  # type: ignore[attr-defined]
    with pytest.raises(nx.DeviceMismatchError) as info:
        s0.launch(scale, 1, N, a, b, 2.0)
    text = str(info.value)
    assert b.label in text and "is on device 1" in text and f"{s0.label} is on device 0" in text
    assert f"allocated at {HERE}:" in text and f"launch() at {HERE}:" in text
    assert "nx.stream(device=1)" in text and "stream.copy(src, to=dst)" in text
    assert isinstance(info.value, ValueError)
    assert backend.pending() == before  # type: ignore[attr-defined]
    assert not b._order.writers and not b._order.readers and not a._order.readers
    s0.launch(scale, 1, N, a, nx.device_array(N, np.float32), 2.0)  # the stream still works


def test_upload_and_download_across_devices_are_refused() -> None:
    s0: Any = nx.stream()  # Any: the calls are refused, no transfer is left to complete
    host = nx.pinned_copy(np.ones(N, np.float32))
    dev1 = nx.device_array(N, np.float32, device=1)
    with pytest.raises(nx.DeviceMismatchError, match=r"upload\(\) at .*: to DeviceArray"):
        s0.upload(host, to=dev1)
    host.read()  # not moved: the refused call changed nothing
    with pytest.raises(nx.DeviceMismatchError, match=r"download\(\) at .*is on device 1"):
        s0.download(dev1, into=host)
    host.read()


def test_copy_whose_stream_is_on_neither_device_is_refused() -> None:
    with nx.use_backend("emulator", devices=3):
        s0, s2 = nx.stream(), nx.stream(device=2)
        a = filled(1.0, s0)
        b = nx.device_array(N, np.float32, device=1)
        with pytest.raises(nx.DeviceMismatchError) as info:
            s2.copy(a, to=b)
        assert "runs on a stream of either (nx.stream(device=0) or nx.stream(device=1))" in str(
            info.value
        )
        c = nx.device_array(N, np.float32)
        with pytest.raises(nx.DeviceMismatchError, match="Both arrays are on device 0"):
            s2.copy(a, to=c)
        assert not b._order.writers and not c._order.writers


def test_copy_across_devices_checks_shapes_first() -> None:
    s0 = nx.stream()
    a = filled(1.0, s0)
    b = nx.device_array(N + 1, np.float32, device=1)
    with pytest.raises(ValueError, match="shape or dtype mismatch"):
        s0.copy(a, to=b)


def test_pinned_memory_is_usable_from_every_device() -> None:
    s0, s1 = nx.stream(), nx.stream(device=1)
    host = nx.pinned_copy(np.arange(N, dtype=np.float32))  # made on the current device
    d0, d1 = nx.device_array(N, np.float32), nx.device_array(N, np.float32, device=1)
    host = s0.upload(host, to=d0).wait()
    host = s1.upload(host, to=d1).wait()
    s1.launch(add_one, 1, N, d1)
    assert (fetch(s1, d1) == np.arange(N) + 1).all()
    assert (fetch(s0, d0) == np.arange(N)).all()


# -- peer and staged routes ------------------------------------------------------------
@pytest.mark.parametrize("peer", [True, False])
@pytest.mark.parametrize("on", ["source", "destination"])
def test_copy_between_devices_takes_the_route_it_says(peer: bool, on: str) -> None:
    with nx.use_backend("emulator", devices=2, peer=peer):
        s0, s1 = nx.stream(), nx.stream(device=1)
        a = filled(3.0, s0)
        s0.launch(add_one, 1, N, a)  # pending on device 0 when the copy is enqueued
        b = nx.device_array(N, np.float32, device=1)
        s = s0 if on == "source" else s1
        t = s.copy(a, to=b)
        assert t.route == ("peer" if peer else "staged")
        assert ("peer copy#" if peer else "staged copy#") in t.label
        assert "(device 0) -> " in t.label and "(device 1)" in t.label
        assert t.wait() is None
        assert (fetch(s1, b) == 4.0).all()


def test_local_copies_say_so() -> None:
    s0 = nx.stream()
    a, b = filled(1.0, s0), nx.device_array(N, np.float32)
    t = s0.copy(a, to=b)
    assert t.route == "local"
    up = s0.upload(nx.pinned_array(N, np.float32), to=b)
    assert up.route is None
    up.wait()


def test_staged_copies_reuse_their_staging_buffer() -> None:
    with nx.use_backend("emulator", devices=2, peer=False):
        s0 = nx.stream()
        a, b = filled(1.0, s0), nx.device_array(N, np.float32, device=1)
        s0.copy(a, to=b).wait()
        area = staging_area(s0._backend)
        held = len(area)
        for _ in range(3):
            s0.copy(a, to=b).wait()
        assert len(area) == held  # the finished copies' buffer came back each time


def test_staged_copy_data_goes_through_host_memory_at_run_time() -> None:
    """Both halves of the staged copy are stream-ordered: the device-to-host half runs
    after the kernel that writes the source, the host-to-device half after that."""
    with nx.use_backend("emulator", devices=2, peer=False, trace=True) as emu:
        s0, s1 = nx.stream(), nx.stream(device=1)
        a = filled(1.0, s0)
        s0.launch(add_one, 1, N, a)
        b = nx.device_array(N, np.float32, device=1)
        s1.copy(a, to=b)
        assert (fetch(s1, b) == 2.0).all()
        ran = [t.split("#", 1)[1].split(" ", 1)[1] for t in emu.trace or []]  # type: ignore[attr-defined]
        launch = ran.index("launch add_one")
        assert ran.index("copy_dtoh", launch) < ran.index("copy_htod", launch)


# -- ordering across devices -----------------------------------------------------------
def test_raw_emulator_peer_copy_races_the_writer_on_the_other_device() -> None:
    dev0 = _backend.get_backend()
    dev1 = dev0.on_device(1)
    a_raw, b_raw = dev0.new_stream(), dev1.new_stream()
    src = dev0.alloc_device((N,), np.dtype(np.float32))
    dst = dev1.alloc_device((N,), np.dtype(np.float32))
    out = np.zeros(N, np.float32)
    dev0.copy_htod(a_raw, src, np.full(N, 5.0, np.float32))  # write on device 0
    dev1.copy_peer(b_raw, dst, dev1, src, dev0)  # read on device 1: no ordering
    dev1.copy_dtoh(b_raw, out, dst)
    dev1.sync_stream(b_raw)
    assert (out == 0.0).all()  # device 1 copied before device 0 wrote


def test_numbaxfer_orders_the_peer_copy_after_the_writer() -> None:
    s0, s1 = nx.stream(), nx.stream(device=1)
    src = nx.device_array(N, np.float32)
    up = s0.upload(nx.pinned_copy(np.full(N, 5.0, np.float32)), to=src)  # pending on dev 0
    dst = nx.device_array(N, np.float32, device=1)
    s1.copy(src, to=dst)  # device 1 waits for device 0's event, on the device
    assert (fetch(s1, dst) == 5.0).all()
    up.wait()


def test_a_kernel_on_device_1_waits_for_a_copy_into_its_input_from_device_0() -> None:
    s0, s1 = nx.stream(), nx.stream(device=1)
    a = filled(2.0, s0)
    b, c = nx.device_array(N, np.float32, device=1), nx.device_array(N, np.float32, device=1)
    s0.copy(a, to=b)  # written by device 0's stream, into device 1's memory
    s1.launch(scale, 1, N, b, c, 10.0)  # device 1 waits for that stream
    assert (fetch(s1, c) == 20.0).all()


def test_overwrite_on_device_0_waits_for_the_read_on_device_1() -> None:
    s0, s1 = nx.stream(), nx.stream(device=1)
    a = filled(1.0, s0)
    b = nx.device_array(N, np.float32, device=1)
    s1.copy(a, to=b)  # device 1 reads a
    s0.upload(nx.pinned_copy(np.full(N, 9.0, np.float32)), to=a).wait()  # overwrite on dev 0
    assert (fetch(s1, b) == 1.0).all()  # the read saw the old value: the write waited
    assert (fetch(s0, a) == 9.0).all()


def test_cross_device_ordering_holds_on_random_schedules() -> None:
    for seed in range(20):
        with nx.use_backend("emulator", devices=2, schedule=f"random:{seed}"):
            s0, s1 = nx.stream(), nx.stream(device=1)
            a = filled(1.0, s0)
            s0.launch(add_one, 1, N, a)
            b = nx.device_array(N, np.float32, device=1)
            s1.copy(a, to=b)
            s1.launch(add_one, 1, N, b)
            s0.launch(add_one, 1, N, a)  # after device 1's read
            assert (fetch(s1, b) == 3.0).all(), seed
            assert (fetch(s0, a) == 3.0).all(), seed


def test_strict_stream_refuses_a_cross_device_dependency() -> None:
    s0, s1 = nx.stream(), nx.stream(device=1, strict=True)
    a = filled(1.0, s0)
    s0.launch(add_one, 1, N, a)
    b = nx.device_array(N, np.float32, device=1)
    backend = s1._backend
    before = backend.pending()  # type: ignore[attr-defined]
    with pytest.raises(nx.CrossStreamError, match=rf"{s1.label} is strict and .* on {s0.label}"):
        s1.copy(a, to=b)
    assert backend.pending() == before and not b._order.writers  # type: ignore[attr-defined]
    s1.wait_for(s0)  # stated explicitly: now allowed
    assert s1.copy(a, to=b).route == "peer"
    assert (fetch(s1, b) == 2.0).all()


# -- the emulator models the devices ---------------------------------------------------
def test_emulator_refuses_what_cuda_refuses_across_devices() -> None:
    dev0 = _backend.get_backend()
    dev1 = dev0.on_device(1)
    assert dev0.on_device(1) is dev1 and dev1.on_device(0) is dev0
    assert dev1.family is dev0.family and dev1.device == 1
    s1 = dev1.new_stream()
    with pytest.raises(RuntimeError, match=r"cannot record an event on .* through device 0"):
        dev0.record(s1)
    buf0 = dev0.alloc_device((N,), np.dtype(np.float32))
    with pytest.raises(RuntimeError, match="argument 0 is memory of device 0"):
        dev1.launch(s1, add_one, 1, N, [buf0])
    with nx.use_backend("emulator", devices=2, peer=False) as emu:
        other = emu.on_device(1)
        with pytest.raises(RuntimeError, match="without peer access"):
            other.copy_peer(other.new_stream(), buf0, other, buf0, emu)


def test_adopted_emulator_array_keeps_its_device() -> None:
    dev1 = _backend.get_backend().on_device(1)
    adopted = nx.adopt_array(dev1.alloc_device((N,), np.dtype(np.float32)))
    assert adopted.device == 1


# -- the multi-device Pipeline ---------------------------------------------------------
@pytest.mark.parametrize("devices", [None, 1, 2, [1], [1, 0]])
def test_pipeline_over_devices_is_right(devices: Any) -> None:
    pipe = nx.Pipeline(5, np.float32, slots=2, devices=devices)
    expected = {None: (0,), 1: (0,), 2: (0, 1), (1,): (1,), (1, 0): (1, 0)}
    key = tuple(devices) if isinstance(devices, list) else devices
    assert pipe.devices == expected[key]
    assert pipe.slots == 2 * len(pipe.devices)
    data = np.arange(47, dtype=np.float32)
    seen: list[int] = []

    def step(s: nx.Stream[nx.Lent], x: Any, y: Any) -> None:
        assert x.device == y.device == s.device
        seen.append(s.device)
        s.launch(scale, 1, x.size, x, y, 2.0)

    src, dst = nx.pinned_copy(data), nx.pinned_array(data.size, np.float32)
    src, dst = pipe.map(src, into=dst, step=step).wait()
    assert (dst.read() == 2.0 * data).all() and (src.read() == data).all()
    order = list(pipe.devices)
    assert seen == [order[i % len(order)] for i in range(len(seen))]  # round-robin
    pipe.close()


def test_pipeline_over_two_devices_is_right_on_random_schedules() -> None:
    data = np.arange(40, dtype=np.float32)
    for seed in range(10):
        with nx.use_backend("emulator", devices=2, schedule=f"random:{seed}"):
            pipe = nx.Pipeline(4, np.float32, slots=2, devices=2)
            src, dst = nx.pinned_copy(data), nx.pinned_array(data.size, np.float32)
            src, dst = pipe.map(
                src, into=dst, step=lambda s, x, y: s.launch(scale, 1, x.size, x, y, 3.0)
            ).wait()
            assert (dst.read() == 3.0 * data).all(), seed
            pipe.close()


@pytest.mark.parametrize(
    ("devices", "error", "words"),
    [
        (0, ValueError, "a device count is >= 1, not 0"),
        (3, ValueError, "device=2 does not exist"),
        ([0, 0], ValueError, "names a device twice; for more slots per device pass slots="),
        ([], ValueError, "name at least one device"),
        ("01", TypeError, "devices= is a count, a list of device ordinals or None"),
    ],
)
def test_pipeline_refuses_bad_devices(devices: Any, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        nx.Pipeline(8, np.float32, devices=devices)
