"""Backends for the example tests: ``numba_backend`` (the GPU, or numba's simulator on a
machine without one) and ``emulator_backend`` (the lazy CPU emulator)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from numbaxfer import _backend
from numbaxfer._backend._emulator import EmulatorBackend, Schedule


@pytest.fixture
def numba_backend() -> Iterator[None]:
    """The numba backend: the GPU where one is present, numba's simulator otherwise."""
    previous = _backend._current
    _backend.set_backend("numba")
    yield
    _backend._current = previous


@pytest.fixture
def emulator_backend() -> Iterator[EmulatorBackend]:
    """The lazy emulator, whatever NUMBAXFER_EMULATOR_SCHEDULE says: copies and kernels
    run only when something forces them, so a raw program's race is wrong every time.
    (Tests that want random interleavings install their own ``EmulatorBackend``.)"""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":
        pytest.skip(
            "the emulator runs kernels on numba's simulator and this process uses the GPU; "
            "run them in a simulator process: NUMBA_ENABLE_CUDASIM=1 pytest tests/examples"
        )
    previous = _backend._current
    backend = _backend._current = EmulatorBackend(Schedule("lazy"))
    yield backend
    _backend._current = previous
