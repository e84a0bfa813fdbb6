"""Bugs the property tests found in the library, pinned as small regression tests.

Each was found by the reference model disagreeing with numbaxfer on a generated
program, and fixed in the library."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._backend._emulator import EmulatorBackend

from .programs import add_const, mix


@pytest.fixture(autouse=True)
def emulator() -> Iterator[None]:
    previous = _backend._current
    _backend._current = EmulatorBackend("lazy")
    yield
    _backend._current = previous


def test_a_freed_host_array_handed_to_a_copy_is_a_use_after_free() -> None:
    """Was: free() dropped the shape, so the copy reported a shape mismatch."""
    s: Any = nx.stream()  # Any: the call raises, so no transfer is left to complete
    host = nx.pinned_array(8, np.float64)
    host.free()
    with pytest.raises(nx.UseAfterTransferError, match="freed"):
        s.upload(host, to=nx.device_array(8, np.float64))


def test_a_refused_launch_leaves_the_stream_bookkeeping_unchanged() -> None:
    """Was: a launch refused with CrossStreamError had already recorded its earlier
    arguments as used by the strict stream, so a later use from another strict stream
    was refused (rule 6: state is unchanged after any error)."""
    strict, other, strict2 = nx.stream(strict=True), nx.stream(), nx.stream(strict=True)
    a, b = nx.device_array(16, np.float64), nx.device_array(16, np.float64)
    other.launch(add_const, 2, 8, b, 1.0)  # b was last written on `other`
    with pytest.raises(nx.CrossStreamError):
        strict.launch(mix, 2, 8, a, b)  # refused: nothing enqueued, nothing changed
    strict2.launch(add_const, 2, 8, a, 1.0)  # a was never used: no dependency


def test_a_write_waits_for_a_read_by_the_stream_that_wrote_the_array() -> None:
    """Found by a random schedule (the lazy one shows it once the right stream is forced
    first): s1 writes `a`, s0 waits for s1 (here, for a read of `b`), s1 then reads `a`
    into host memory, and s0 overwrites `a`. s0 must wait for that read. It did not (the
    writer's own later reads were not recorded); fixed in Stream._order."""
    s0, s1 = nx.stream(), nx.stream()
    a, b = nx.device_array(4, np.float64), nx.device_array(4, np.float64)
    s1.copy(b, to=a)  # a written on s1 (zeros); b read on s1
    h1 = s0.upload(nx.pinned_copy(np.full(4, 7.0)), to=b).wait()  # s0 waits for s1's read
    down = s1.download(a, into=nx.pinned_array(4, np.float64))  # s1 reads a
    up = s0.upload(h1, to=a)  # s0 overwrites a: it must wait for s1's read
    up.wait()  # lazy: runs s0's work, and whatever it waits for
    assert (down.wait().read() == 0.0).all()
