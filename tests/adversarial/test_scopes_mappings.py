"""Issue 10, class 7: scopes and mappings keep their promises (an nx.pinned block
notices a dropped transfer; a Mapping completes, waits for exactly its own work,
round-trips as a MappedArray, warns when dropped, refuses foreign arrays)."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._backend._emulator import EmulatorBackend
from tests.adversarial.conftest import SIMULATED
from tests.kernels import add_one

N = 64
F32 = np.float32


def test_pinned_block_after_a_dropped_transfer_raises(emulator: EmulatorBackend) -> None:
    """Class 7 (scopes): inside `with nx.pinned(a) as h:` a transfer of `h` is started
    and dropped (del + gc): the block's exit raises UnfinishedTransferError (a
    ResourceWarning for the drop is expected too)."""
    a = np.ones(N, F32)
    s = nx.stream()
    # On the emulator the dropped copy is still queued at the block's end (on numba's
    # simulator, or a fast GPU, it may have finished: nothing unfinished to report).
    with pytest.raises(nx.UnfinishedTransferError), nx.pinned(a) as h:
        up = s.upload(h, to=nx.device_array(N, F32))
        with pytest.warns(ResourceWarning):
            del up  # type: ignore[unfinished-transfer]
            gc.collect()
    s.synchronize()


def test_mapping_done_turns_true_when_polled(emulator: EmulatorBackend) -> None:
    """Class 7 (mappings): under the lazy emulator `Mapping.done()` eventually answers
    True when called in a loop (a fresh event per call was never done)."""
    s = nx.stream()
    mp = s.map(nx.mapped_array(N, F32))
    s.launch(add_one, 1, N, mp.device)
    assert any(mp.done() for _ in range(10))
    mp.wait()
    s.close()


def test_mapping_wait_does_not_wait_for_later_unrelated_work(emulator: EmulatorBackend) -> None:
    """Class 7 (mappings): `Mapping.wait()` waits only for the work that used the
    mapping: an unrelated upload enqueued later on the same stream stays pending."""
    s = nx.stream()
    mp = s.map(nx.mapped_array(N, F32))
    s.launch(add_one, 1, N, mp.device)
    later = s.upload(nx.pinned_array(N, F32), to=nx.device_array(N, F32))
    mp.wait()
    assert emulator.pending() > 0, "Mapping.wait() ran the later, unrelated upload too"
    assert later.done() is False  # lazy: the first poll of unfinished work says "not yet"
    later.wait()
    s.close()


@pytest.mark.parametrize("how", ["upload", "download"])
def test_mapped_array_round_trips_as_a_mapped_array(backend: Any, how: str) -> None:
    """Class 7 (mappings): a MappedArray that went through upload/download comes back
    from `wait()` as an `nx.MappedArray`, and `s.map()` accepts it."""
    s = nx.stream()
    m = nx.mapped_array(N, F32)
    dev = nx.device_array(N, F32)
    t = s.upload(m, to=dev) if how == "upload" else s.download(dev, into=m)
    back = t.wait()
    assert isinstance(back, nx.MappedArray), type(back)
    mp = s.map(back)
    s.launch(add_one, 1, N, mp.device)
    mp.wait()
    s.close()


def test_dropped_mapping_warns(backend: Any) -> None:
    """Class 7 (mappings): a Mapping dropped without `wait()` gives a ResourceWarning
    (like a dropped transfer): its array is otherwise lost silently."""
    s = nx.stream()
    mp = s.map(nx.mapped_array(N, F32))
    s.launch(add_one, 1, N, mp.device)
    with pytest.warns(ResourceWarning):
        del mp  # type: ignore[unfinished-transfer]
        gc.collect()
    s.synchronize()


@pytest.mark.parametrize("direction", ["numba->emulator", "emulator->numba"])
def test_map_refuses_another_backends_array(direction: str) -> None:
    """Class 7 (mappings): `s.map(m)` with `m` allocated on another backend is a
    ValueError (its memory is not the stream's device's)."""
    if not SIMULATED:
        pytest.skip("the emulator needs numba's simulator (NUMBA_ENABLE_CUDASIM=1)")
    previous = _backend._current
    try:
        first, second = direction.split("->")
        _backend._current = EmulatorBackend() if first == "emulator" else None
        if first == "numba":
            _backend.set_backend("numba")
        m = nx.mapped_array(N, F32)
        if second == "emulator":
            _backend._current = EmulatorBackend()
        else:
            _backend.set_backend("numba")
        s = nx.stream()
        with pytest.raises(ValueError):
            mp = s.map(m)
            mp.wait()
        s.close()
    finally:
        _backend._current = previous
