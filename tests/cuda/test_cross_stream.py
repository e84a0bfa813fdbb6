"""Kernel intents, strict streams and interop on the numba backend (simulator or GPU)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.kernels import add_one, scale_into

N = 64
scale = nx.kernel(reads=["src"], writes=["dst"])(scale_into)


def uploaded(value: float, s: nx.Stream[nx.Owned]) -> nx.DeviceArray[nx.Owned, np.float32]:
    dev = nx.device_array(N, np.float32)
    s.upload(nx.pinned_copy(np.full(N, value, np.float32)), to=dev).wait()
    return dev


def host_of(dev: nx.DeviceArray[Any, np.float32], s: nx.Stream[Any]) -> Any:
    return s.download(dev, into=nx.pinned_array(N, np.float32)).wait().read()


def test_intents_let_a_kernel_read_a_lent_array() -> None:
    s = nx.stream()
    src, dst = uploaded(2.0, s), nx.device_array(N, np.float32)
    with src.lend() as view:
        s.launch(scale, 1, N, view, dst, 3.0)
        scale[1, N, s](view, dst, 3.0)  # numba-style launch on a numbaxfer stream
    assert (host_of(dst, s) == 6.0).all()


def test_written_parameter_needs_an_owned_array() -> None:
    s = nx.stream()
    src, dst = uploaded(2.0, s), nx.device_array(N, np.float32)
    with dst.lend() as view, pytest.raises(nx.BorrowError, match="writes it"):
        s.launch(scale, 1, N, src, view, 3.0)


def test_undeclared_array_parameter_is_refused() -> None:
    s = nx.stream()
    k = nx.kernel(writes=["dst"])(scale_into)
    with pytest.raises(TypeError, match="neither in reads nor in writes"):
        s.launch(k, 1, N, uploaded(1.0, s), nx.device_array(N, np.float32), 2.0)


def test_kernel_declarations_are_checked() -> None:
    with pytest.raises(ValueError, match="not among its parameters"):
        nx.kernel(reads=["nope"])(scale_into)
    with pytest.raises(ValueError, match="both reads and writes"):
        nx.kernel(reads=["src"], writes=["src"])(scale_into)
    with pytest.raises(TypeError, match=r"numba\.cuda\.jit"):
        nx.kernel(reads=["x"])(len)
    with pytest.raises(TypeError, match="numbaxfer stream"):
        scale[1, N, 0]
    with pytest.raises(TypeError, match="takes 3 arguments"):
        nx.stream().launch(scale, 1, N, nx.device_array(N, np.float32))
    assert "src: reads" in repr(scale) and "dst: writes" in repr(scale)


def test_strict_stream_refuses_an_implicit_cross_stream_wait() -> None:
    a, b = nx.stream(), nx.stream(strict=True)
    dev = uploaded(1.0, a)
    with pytest.raises(nx.CrossStreamError, match="last written on Stream#"):
        b.launch(add_one, 1, N, dev)
    with pytest.raises(nx.CrossStreamError):
        b.download(dev, into=nx.pinned_array(N, np.float32))
    a.launch(add_one, 1, N, dev)  # same stream: fine
    assert (host_of(dev, a) == 2.0).all()


def test_same_stream_work_adds_no_event() -> None:
    s = nx.stream()
    dev = uploaded(1.0, s)
    backend = s._backend
    recorded: list[object] = []
    original = backend.record

    def counting(stream: object) -> object:
        recorded.append(stream)
        return original(stream)

    backend.record = counting  # type: ignore[method-assign]
    try:
        for _ in range(3):
            s.launch(add_one, 1, N, dev)
    finally:
        del backend.record
    assert recorded == []


def test_array_interface_only_through_a_lent_handle() -> None:
    s = nx.stream()
    dev = uploaded(1.0, s)
    with pytest.raises(nx.BorrowError, match="lent handle"):
        _ = dev.__cuda_array_interface__
    with dev.lend() as view:
        if s._backend.name == "numba" and getattr(s._backend, "simulated", False):
            with pytest.raises(TypeError, match="real GPU"):
                _ = view.__cuda_array_interface__
        else:
            cai = view.__cuda_array_interface__
            assert cai["version"] == 3 and cai["shape"] == (N,) and cai["stream"]
    with pytest.raises(nx.BorrowError, match="has ended"):
        _ = view.__cuda_array_interface__  # type: ignore[lend-escape]


def test_freed_device_array_refuses_use() -> None:
    s = nx.stream()
    dev = uploaded(1.0, s)
    dev.free()
    with pytest.raises(nx.UseAfterTransferError, match="freed"):
        s.launch(add_one, 1, N, dev)


def test_strict_stream_accepts_an_explicit_wait() -> None:
    a, b = nx.stream(), nx.stream(strict=True)
    dev = uploaded(1.0, a)
    b.wait_for(a)  # the dependency, stated
    b.launch(add_one, 1, N, dev)
    a.launch(add_one, 1, N, dev)  # a was not told about b's write: a non-strict wait
    assert (host_of(dev, a) == 3.0).all()
    with pytest.raises(nx.CrossStreamError):
        b.launch(add_one, 1, N, dev)  # a wrote again since b's wait


def test_one_cross_stream_wait_covers_later_uses() -> None:
    a, b = nx.stream(), nx.stream()
    dev = uploaded(1.0, a)
    backend = b._backend
    waits: list[object] = []
    original = backend.wait_event

    def counting(stream: object, event: object) -> None:
        waits.append(stream)
        original(stream, event)

    backend.wait_event = counting  # type: ignore[method-assign]
    try:
        for _ in range(3):
            b.launch(add_one, 1, N, dev)
    finally:
        del backend.wait_event
    assert len(waits) == 1
    assert (host_of(dev, b) == 4.0).all()
