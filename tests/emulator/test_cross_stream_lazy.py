"""Cross-stream patterns on the lazy emulator: the raw version of each is wrong, the
numbaxfer version is right with no user synchronization."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import numpy as np

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._lifetime import orphan_count
from tests.kernels import add_one, scale_into

N = 32
scale = nx.kernel(reads=["src"], writes=["dst"])(scale_into)


def dev_filled(value: float, s: nx.Stream[nx.Owned]) -> nx.DeviceArray[nx.Owned, np.float32]:
    dev = nx.device_array(N, np.float32)
    s.upload(nx.pinned_copy(np.full(N, value, np.float32)), to=dev).wait()
    return dev


def test_raw_produce_on_a_consume_on_b_is_wrong() -> None:
    b = _backend.get_backend()
    a_raw, b_raw = b.new_stream(), b.new_stream()
    src = b.alloc_device((N,), np.dtype(np.float32))
    dst = b.alloc_device((N,), np.dtype(np.float32))
    out = np.zeros(N, np.float32)
    b.copy_htod(a_raw, src, np.full(N, 2.0, np.float32))  # produce on A
    b.launch(b_raw, scale_into, 1, N, [src, dst, 3.0])  # consume on B: no ordering
    b.copy_dtoh(b_raw, out, dst)
    b.sync_stream(b_raw)
    assert (out == 0.0).all()  # B read src before A wrote it


def test_produce_on_a_consume_on_b_is_right() -> None:
    a, b = nx.stream(), nx.stream()
    src, dst = nx.device_array(N, np.float32), nx.device_array(N, np.float32)
    up = a.upload(nx.pinned_copy(np.full(N, 2.0, np.float32)), to=src)
    b.launch(scale, 1, N, src, dst, 3.0)  # B waits for A on the device
    out = b.download(dst, into=nx.pinned_array(N, np.float32)).wait()
    assert (out.read() == 6.0).all()
    up.wait()


def test_download_on_b_of_kernel_output_on_a_is_right() -> None:
    a, b = nx.stream(), nx.stream()
    dev = dev_filled(1.0, a)
    a.launch(add_one, 1, N, dev)
    out = b.download(dev, into=nx.pinned_array(N, np.float32)).wait()
    assert (out.read() == 2.0).all()


def test_write_on_b_waits_for_a_read_on_a() -> None:
    a, b = nx.stream(), nx.stream()
    src, dst = dev_filled(1.0, a), nx.device_array(N, np.float32)
    a.launch(scale, 1, N, src, dst, 10.0)  # A reads src
    b.upload(nx.pinned_copy(np.full(N, 5.0, np.float32)), to=src).wait()  # B overwrites src
    out = a.download(dst, into=nx.pinned_array(N, np.float32)).wait()
    assert (out.read() == 10.0).all()  # A read the old value: the overwrite waited


def test_free_while_pending_keeps_the_memory_until_the_work_ran() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    up = s.upload(nx.pinned_copy(np.full(N, 7.0, np.float32)), to=dev)
    s.launch(add_one, 1, N, dev)
    buf: Any = dev._buf
    memory = weakref.ref(buf._ary)
    del buf
    before = orphan_count()
    dev.free()  # work on it is still queued
    gc.collect()
    assert memory() is not None and orphan_count() == before + 1
    up.wait()
    s.synchronize()
    assert orphan_count() == before
    gc.collect()
    assert memory() is None
