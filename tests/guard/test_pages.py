"""The page arithmetic of guard mode, in process (nothing here touches protected memory)."""

from __future__ import annotations

import mmap
from collections.abc import Iterator

import numpy as np
import pytest

import numbaxfer as nx
from numbaxfer import _guard

PAGE = mmap.PAGESIZE


@pytest.fixture
def guard_on() -> Iterator[None]:
    previous = nx.set_guard(True)
    try:
        yield
    finally:
        nx.set_guard(previous)


def test_the_switch() -> None:
    previous = nx.set_guard(True)
    assert nx.guard_enabled()
    assert nx.set_guard(False) is True
    assert not nx.guard_enabled()
    nx.set_guard(previous)


def test_alloc_pages_is_page_aligned_and_zeroed() -> None:
    a = _guard.alloc_pages((3, 5), np.dtype(np.float64))
    assert a.shape == (3, 5) and a.dtype == np.float64 and a.flags.writeable
    assert a.__array_interface__["data"][0] % PAGE == 0
    assert not a.any()


def test_only_whole_pages_inside_are_protected(guard_on: None) -> None:
    area = _guard.alloc_pages((4 * PAGE,), np.dtype(np.uint8))
    inner = area[100 : 3 * PAGE + 10]  # covers pages 1 and 2 whole, 0 and 3 in part
    token = _guard.protect(inner, False, "test")
    assert token is not None
    base = area.__array_interface__["data"][0]
    assert (token.addr, token.size) == (base + PAGE, 2 * PAGE)
    assert area[0] == 0 and area[3 * PAGE + 20] == 0  # the edge pages stay usable
    area[50] = 1
    area[3 * PAGE + 20] = 1
    token.release()
    token.release()  # idempotent
    assert _guard.active_count() == 0


def test_no_whole_page_no_protection(guard_on: None) -> None:
    area = _guard.alloc_pages((2 * PAGE,), np.dtype(np.uint8))
    assert _guard.protect(area[10 : PAGE + 10], True, "test") is None


def test_off_means_nothing_is_protected() -> None:
    previous = nx.set_guard(False)
    try:
        area = _guard.alloc_pages((2 * PAGE,), np.dtype(np.uint8))
        assert _guard.protect(area, True, "test") is None
    finally:
        nx.set_guard(previous)


def test_a_new_protection_supersedes_an_old_one_on_the_same_pages(guard_on: None) -> None:
    area = _guard.alloc_pages((2 * PAGE,), np.dtype(np.uint8))
    first = _guard.protect(area, False, "upload")
    second = _guard.protect(area, True, "chained download")
    assert first is not None and second is not None
    first.release()  # superseded: lifts nothing
    assert second.active and _guard.active_count() == 1
    got = _guard.lifted((area,), lambda: int(area[5]))  # a CPU backend's copy
    assert got == 0 and second.active
    del second  # dropped: lifts itself
    assert _guard.active_count() == 0
    area[5] = 1


def test_guarded_transfers_in_process(guard_on: None) -> None:
    with nx.use_backend("emulator"):
        s = nx.stream()
        host = nx.pinned_copy(np.arange(3 * PAGE, dtype=np.float32))
        dev = nx.device_array(3 * PAGE, np.float32)
        up = s.upload(host, to=dev)
        assert _guard.active_count() == 1
        host = up.wait()
        assert _guard.active_count() == 0
        out = s.download(dev, into=nx.pinned_array(3 * PAGE, np.float32))
        assert _guard.active_count() == 1
        result = out.wait()
        assert _guard.active_count() == 0
        assert (result.read() == host.read()).all()
        s.close()
