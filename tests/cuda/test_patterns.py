"""Scoped pinning, mapped arrays, asyncio and the buffer pool on the numba backend."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

import numbaxfer as nx
from numbaxfer._lifetime import orphan_count
from tests.kernels import add_one

N = 64


# -- nx.pinned: scoped pinning in place ----------------------------------------------------
def test_pinned_scope_shares_memory_and_expires() -> None:
    a = np.arange(N, dtype=np.float32)
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    with nx.pinned(a) as h:
        assert h.read().__array_interface__["data"][0] == a.__array_interface__["data"][0]
        h = s.upload(h, to=dev).wait()
        with h.write() as view:
            view[0] = 100.0
    assert a[0] == 100.0  # written in place, no copy
    with pytest.raises(nx.BorrowError, match=r"nx.pinned\(\) block that ended"):
        h.read()  # type: ignore[use-after-transfer]
    out = s.download(dev, into=nx.pinned_array(N, np.float32)).wait()
    assert out.read()[1] == 1.0


def test_pinned_scope_refuses_to_end_under_an_unfinished_transfer() -> None:
    a = np.ones(N, np.float32)
    s = nx.stream()
    before = orphan_count()
    unfinished = pytest.raises(nx.UnfinishedTransferError, match=r"upload#\d+ of PinnedArray")
    with unfinished, nx.pinned(a) as h:  # type: ignore[unfinished-transfer]
        up = s.upload(h, to=nx.device_array(N, np.float32))
    assert orphan_count() >= before  # kept pinned until the copy finished (at once here)
    late = up.wait()  # the copy is complete; the handle belongs to an ended scope
    with pytest.raises(nx.BorrowError, match=r"nx.pinned\(\) block that ended"):
        late.read()


def test_exception_in_the_block_keeps_its_own_error_and_the_memory() -> None:
    a = np.ones(N, np.float32)
    s = nx.stream()
    with pytest.raises(KeyError) as err, nx.pinned(a) as h:
        up = s.upload(h, to=nx.device_array(N, np.float32))
        raise KeyError("user error")
    assert any("unfinished transfer" in note for note in err.value.__notes__)
    up.wait()


def test_pinned_refuses_what_cannot_be_pinned_in_place() -> None:
    with pytest.raises(ValueError, match="contiguous"):
        nx.pinned(np.ones((4, 4), np.float32)[:, ::2])
    with pytest.raises(TypeError):
        nx.pinned([1.0, 2.0])  # type: ignore[call-overload]


# -- mapped arrays --------------------------------------------------------------------------
def test_mapped_array_moves_to_the_kernels_and_comes_back() -> None:
    s = nx.stream()
    m = nx.mapped_array(N, np.float32)
    with m.write() as a:
        a[:] = 1.0
    mapping = s.map(m)
    with pytest.raises(nx.UseAfterTransferError, match="map"):
        m.read()  # type: ignore[use-after-transfer]
    s.launch(add_one, 1, N, mapping.device)
    assert mapping.racy_peek().shape == (N,)  # deliberate, documented, racy
    m = mapping.wait()
    assert (m.read() == 2.0).all()
    with pytest.raises(nx.UseAfterTransferError):
        s.launch(add_one, 1, N, mapping.device)  # type: ignore[use-after-transfer]
    with pytest.raises(nx.UseAfterTransferError, match="already completed"):
        mapping.wait()  # type: ignore[transfer-completed-twice]


def test_map_takes_only_mapped_memory() -> None:
    with pytest.raises(TypeError, match="mapped_array"):
        nx.stream().map(nx.pinned_array(N, np.float32))  # type: ignore[arg-type]


# -- asyncio --------------------------------------------------------------------------------
def test_await_transfers_on_private_streams_under_gather() -> None:
    async def roundtrip(value: float) -> float:
        s = nx.stream()
        dev = nx.device_array(N, np.float32)
        host = await s.upload(nx.pinned_copy(np.full(N, value, np.float32)), to=dev)
        out = await s.download(dev, into=host)
        s.close()
        return float(out.read().sum())

    async def main() -> list[float]:
        return await asyncio.gather(*(roundtrip(float(i)) for i in range(8)))

    assert asyncio.run(main()) == [float(i * N) for i in range(8)]


# -- the pool -------------------------------------------------------------------------------
def test_pool_hands_out_only_finished_buffers() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    pool = nx.PinnedPool(2, N, np.float32)
    a, b = pool.take(), pool.take()
    assert a is not None and b is not None and pool.take(block=False) is None
    pool.recycle(s.download(dev, into=a))  # a moves with its transfer into the pool
    with pytest.raises(nx.UseAfterTransferError):
        a.read()  # type: ignore[use-after-transfer]
    again = pool.take()  # the download has finished (or take() waits for its event)
    assert again is not None and again.read().shape == (N,)
    pool.give(b)
    with pytest.raises(nx.UseAfterTransferError):
        b.read()  # type: ignore[use-after-transfer]
    with pytest.raises(ValueError, match="not one of this pool"):
        pool.give(nx.pinned_array(N, np.float32))
    assert len(pool) == 1
