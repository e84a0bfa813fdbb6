"""Owned parts and chained transfers on the lazy emulator: copies run only when forced,
so touching a part in flight gives the wrong answer the numba way, and numbaxfer refuses
it while the sibling parts stay free to use."""

from __future__ import annotations

import numpy as np
import pytest

import numbaxfer as nx
from numbaxfer import _backend
from tests.kernels import add_one

N = 64
F32 = np.float32


def test_raw_part_written_while_its_upload_is_queued_is_wrong() -> None:
    """numba style: slices of one pinned array uploaded on two streams; the program
    writes the first slice before its copy ran. The device gets the later value."""
    b = _backend.get_backend()
    s1, s2 = b.new_stream(), b.new_stream()
    host = b.alloc_pinned((N,), np.dtype(F32))
    dev = b.alloc_device((N,), np.dtype(F32))
    host[:] = 1.0
    b.copy_htod(s1, b.device_view(dev, 0, N // 2), host[: N // 2])
    b.copy_htod(s2, b.device_view(dev, N // 2, N), host[N // 2 :])
    host[0] = 2.0  # races the first slice's copy
    b.sync_stream(s1)
    b.sync_stream(s2)
    assert dev.copy_to_host()[0] == 2.0  # corrupted


def test_numbaxfer_refuses_the_part_in_flight_and_lets_the_sibling_be_written() -> None:
    host, dev = nx.pinned_array(N, F32), nx.device_array(N, F32)
    with host.write() as a:
        a[:] = 1.0
    s1, s2 = nx.stream(), nx.stream()
    (h1, h2), (d1, d2) = nx.split(host, 2), nx.split(dev, 2)
    up1 = s1.upload(h1, to=d1)
    with (
        pytest.raises(nx.UseAfterTransferError, match="may still be running"),
        h1.write() as a,  # type: ignore[use-after-transfer]
    ):
        a[0] = 2.0
    with h2.write() as a:  # the sibling is the caller's: writing it is fine
        a[:] = 5.0
    up2 = s2.upload(h2, to=d2)
    h1, h2 = up1.wait(), up2.wait()
    dev = nx.join([d1, d2])
    out = s1.download(dev, into=nx.join([h1, h2])).wait()
    np.testing.assert_array_equal(out.read(), [1.0] * (N // 2) + [5.0] * (N // 2))
    s1.close()
    s2.close()


def test_joined_device_array_waits_for_every_part_stream() -> None:
    """Parts written by kernels on two streams; the joined array read on a third stream
    is ordered after both by event waits (the lazy emulator would otherwise read early)."""
    s1, s2, s3 = nx.stream(), nx.stream(), nx.stream()
    host = nx.pinned_array(N, F32)
    with host.write() as a:
        a[:] = 0.0
    dev = nx.device_array(N, F32)
    dev_up = s3.upload(host, to=dev)
    host = dev_up.wait()
    d1, d2 = nx.split(dev, 2)
    s1.launch(add_one, 1, N, d1)
    s2.launch(add_one, 1, N, d2)
    s2.launch(add_one, 1, N, d2)
    dev = nx.join([d1, d2])
    out = s3.download(dev, into=host).wait()
    np.testing.assert_array_equal(out.read(), [1.0] * (N // 2) + [2.0] * (N // 2))
    for s in (s1, s2, s3):
        s.close()


def test_chained_download_runs_after_the_upload_on_the_lazy_emulator() -> None:
    s, t = nx.stream(), nx.stream()
    host, dev = nx.pinned_array(N, F32), nx.device_array(N, F32)
    with host.write() as a:
        a[:] = 3.0
    up = s.upload(host, to=dev)
    t.launch(add_one, 1, N, dev)  # ordered after the upload by an event wait
    host = t.download(dev, into=up).wait()
    np.testing.assert_array_equal(host.read(), 4.0)
    s.close()
    t.close()


def test_staged_upload_copies_the_pageable_data_at_once() -> None:
    """The lazy emulator runs the DMA late: a staged upload still gets the values the
    array had at the call, because they were copied into the staging buffer then."""
    s = nx.stream()
    dev = nx.device_array(N, F32)
    a = np.full(N, 7.0, F32)
    t = s.upload_staged(a, to=dev)
    a[:] = -1.0  # reusing the pageable array at once is fine
    b = np.full(N, 8.0, F32)
    s.upload_staged(b, to=nx.device_array(N, F32))  # completing it is optional
    t.wait()
    out = s.download(dev, into=nx.pinned_array(N, F32)).wait()
    np.testing.assert_array_equal(out.read(), 7.0)
    with pytest.raises(TypeError, match="already pinned"):
        s.upload_staged(nx.pinned_array(N, F32), to=dev)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mismatch"):
        s.upload_staged(np.zeros(N + 1, F32), to=dev)
    s.synchronize()
    s.close()


def test_mapped_in_place_block_refuses_to_end_under_a_kernel() -> None:
    """nx.mapped(a): the kernels use `a`'s own memory; ending the block before the
    mapping's wait() raises, and the queued kernel still runs on memory kept alive."""
    from tests.kernels import add_one as kernel

    a = np.zeros(N, F32)
    s = nx.stream()
    with nx.mapped(a) as m:
        mapping = s.map(m)
        s.launch(kernel, 1, N, mapping.device)
        m = mapping.wait()
        np.testing.assert_array_equal(m.read(), 1.0)
    np.testing.assert_array_equal(a, 1.0)  # in place, no copy
    with pytest.raises(nx.UnfinishedTransferError, match="mapping"), nx.mapped(a) as m:  # type: ignore[unfinished-transfer]
        mapping = s.map(m)
        s.launch(kernel, 1, N, mapping.device)
    assert a[0] == 1.0  # the lazy emulator has not run the kernel: the block did not wait
    mapping.wait()
    assert a[0] == 2.0
    s.close()
