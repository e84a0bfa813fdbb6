"""Owned parts (nx.split / nx.join) and chained transfers on numba: the simulator on a
CPU, the GPU on a GPU host."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.kernels import add_one

N = 96
F32 = np.float32


def filled(n: int = N) -> nx.PinnedArray[nx.Owned, np.float32]:
    h = nx.pinned_array(n, F32)
    with h.write() as a:
        a[:] = np.arange(n, dtype=F32)
    return h


def test_split_by_count_chunk_and_bounds() -> None:
    assert [p.shape for p in nx.split(nx.pinned_array(10, F32), 3)] == [(4,), (3,), (3,)]
    assert [p.shape for p in nx.split(nx.pinned_array(10, F32), chunk=4)] == [(4,), (4,), (2,)]
    assert [p.shape for p in nx.split(nx.device_array((10, 2), F32), bounds=[0, 1, 10])] == [
        (1, 2),
        (9, 2),
    ]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"count": 3, "chunk": 2},
        {"count": 0},
        {"count": 11},
        {"chunk": 0},
        {"bounds": [1, 10]},
        {"bounds": [0, 5, 5, 10]},
        {"bounds": [0, 4]},
        {"count": True},
    ],
)
def test_bad_split_is_refused_and_changes_nothing(kwargs: dict[str, object]) -> None:
    h = nx.pinned_array(10, F32)
    with pytest.raises((TypeError, ValueError)):
        nx.split(h, **kwargs)  # type: ignore[call-overload]
    h.read()  # a refused split moves nothing


def test_parts_move_into_transfers_on_their_own_streams_and_join() -> None:
    host, dev = filled(), nx.device_array(N, F32)
    streams = [nx.stream() for _ in range(3)]
    hparts, dparts = nx.split(host, 3), nx.split(dev, 3)
    with pytest.raises(nx.UseAfterTransferError, match="split into parts"):
        host.read()  # type: ignore[use-after-transfer]
    hparts = [s.upload(h, to=d).wait() for s, h, d in zip(streams, hparts, dparts, strict=True)]
    for s, d in zip(streams, dparts, strict=True):
        s.launch(add_one, 1, 64, d)
    downs = [s.download(d, into=h) for s, h, d in zip(streams, hparts, dparts, strict=True)]
    hparts = [t.wait() for t in downs]
    host, dev = nx.join(hparts), nx.join(dparts)
    np.testing.assert_array_equal(host.read(), np.arange(N, dtype=F32) + 1)
    # the joined device array waits for every part's stream
    out = streams[0].download(dev, into=nx.pinned_array(N, F32)).wait()
    np.testing.assert_array_equal(out.read(), np.arange(N, dtype=F32) + 1)
    for s in streams:
        s.close()


def _join(parts: list[nx.PinnedArray[nx.Owned, np.float32]]) -> nx.PinnedArray[nx.Owned, Any]:
    """nx.join through a plain parameter: the static checker does not yet know that a
    refused call moves nothing (issue 12), so the refused joins below go through here."""
    return nx.join(parts)


def test_join_takes_every_part_once_and_only_usable_ones() -> None:
    s = nx.stream()
    a, b, c = nx.split(filled(), 3)
    with pytest.raises(ValueError, match="missing"):
        _join([a, b])
    with pytest.raises(ValueError, match="twice"):
        _join([a, a, b])
    up = s.upload(c, to=nx.device_array(32, F32))
    with pytest.raises(nx.UseAfterTransferError):
        _join([a, b, c])  # type: ignore[use-after-transfer]  # c is in flight: deliberate
    c = up.wait()
    other = nx.split(nx.pinned_array(N, F32), 3)
    with pytest.raises(ValueError, match="not a part of the split"):
        _join([a, b, other[0]])
    with b.lend(), pytest.raises(nx.BorrowError):
        _join([a, b, c])
    whole = nx.join([c, a, b])  # any order
    np.testing.assert_array_equal(whole.read(), np.arange(N, dtype=F32))
    with pytest.raises(nx.UseAfterTransferError, match="joined back"):
        a.read()  # type: ignore[use-after-transfer]
    nx.join(other)
    s.close()


def test_device_parts_cannot_be_freed_alone_and_parts_cannot_be_copied() -> None:
    dparts = nx.split(nx.device_array(N, F32), 2)
    with pytest.raises(nx.BorrowError, match="part of"):
        dparts[0].free()
    with pytest.raises(TypeError):
        copy.copy(dparts[0])
    nx.join(dparts).free()


def test_a_ragged_last_part_is_a_valid_endpoint() -> None:
    s = nx.stream()
    host = filled(100)
    dev = nx.device_array(100, F32)
    hp, dp = nx.split(host, chunk=32), nx.split(dev, chunk=32)
    assert hp[-1].shape == (4,)
    last = s.upload(hp[-1], to=dp[-1])
    hp[-1] = last.wait()
    s.launch(add_one, 1, 32, dp[-1])
    hp[-1] = s.download(dp[-1], into=hp[-1]).wait()
    host = nx.join(hp)
    np.testing.assert_array_equal(host.read()[96:], np.arange(96, 100, dtype=F32) + 1)
    np.testing.assert_array_equal(host.read()[:96], np.arange(96, dtype=F32))
    nx.join(dp)
    s.close()


def test_chained_download_takes_the_upload_over_without_a_host_wait() -> None:
    s = nx.stream()
    host, dev = filled(), nx.device_array(N, F32)
    up = s.upload(host, to=dev)
    s.launch(add_one, 1, N, dev)
    down = s.download(dev, into=up)
    with pytest.raises(nx.UseAfterTransferError, match="handed on"):
        up.wait()  # type: ignore[use-after-transfer]
    host = down.wait()
    np.testing.assert_array_equal(host.read(), np.arange(N, dtype=F32) + 1)
    s.close()  # the upload's registration went with it


def test_chained_download_on_another_stream_and_a_completed_upload_is_refused() -> None:
    s, t = nx.stream(), nx.stream()
    host, dev = filled(), nx.device_array(N, F32)
    up = s.upload(host, to=dev)
    t.launch(add_one, 1, N, dev)
    host = t.download(dev, into=up).wait()
    np.testing.assert_array_equal(host.read(), np.arange(N, dtype=F32) + 1)
    done = s.upload(host, to=dev)
    host = done.wait()
    with pytest.raises(nx.UseAfterTransferError, match="not pending"):
        t.download(dev, into=done)
    s.close()
    t.close()


def test_pinned_takes_several_arrays_and_refuses_shared_memory() -> None:
    a, b = np.arange(8, dtype=F32), np.zeros(8, F32)
    s = nx.stream()
    dev = nx.device_array(8, F32)
    with nx.pinned(a, b) as (ha, hb):
        ha = s.upload(ha, to=dev).wait()
        hb = s.download(dev, into=hb).wait()
        assert ha.label != hb.label
    np.testing.assert_array_equal(b, a)
    big = np.zeros(16, F32)
    with pytest.raises(nx.BorrowError, match="share memory"):
        nx.pinned(big[:8], big[4:])
    s.close()


def test_pool_take_is_typed_as_it_behaves_and_the_pool_can_grow() -> None:
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(1, 8, F32)
    first = pool.take()  # PinnedArray, not Optional: take() blocks
    assert pool.try_take() is None
    pool.grow(2)
    assert pool.count == 3
    second = pool.take(timeout=1.0)
    pool.give(first)
    pool.give(second)
    assert len(pool) == 3


def test_fortran_order_end_to_end_and_mismatches_refused() -> None:
    s = nx.stream()
    a = np.asfortranarray(np.arange(12, dtype=F32).reshape(3, 4))
    host = nx.pinned_copy(a)  # keeps the Fortran order
    assert host.read().flags.f_contiguous
    dev_f = nx.device_array((3, 4), F32, order="F")
    host = s.upload(host, to=dev_f).wait()
    out = s.download(dev_f, into=nx.pinned_array((3, 4), F32, order="F")).wait()
    np.testing.assert_array_equal(out.read(), a)
    with pytest.raises(ValueError, match="memory order mismatch"):
        s.upload(host, to=nx.device_array((3, 4), F32))
    with pytest.raises(ValueError, match="Fortran-ordered"):
        nx.split(nx.device_array((3, 4), F32, order="F"), 3)
    b = np.asfortranarray(np.zeros((3, 4), F32))
    with nx.pinned(b) as hb:
        hb = s.download(dev_f, into=hb).wait()
    np.testing.assert_array_equal(b, a)
    with pytest.raises(ValueError, match="order is"):
        nx.device_array(4, F32, order="K")  # type: ignore[call-overload]
    s.close()
