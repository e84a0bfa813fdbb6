"""Backends for the example tests: ``numba_backend`` (the GPU, or numba's simulator on a
machine without one) and ``emulator_backend`` (the lazy CPU emulator)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import numbaxfer as nx
from numbaxfer._backend._emulator import EmulatorBackend


@pytest.fixture
def numba_backend() -> Iterator[None]:
    """The numba backend: the GPU where one is present, numba's simulator otherwise."""
    with nx.use_backend("numba"):
        yield


@pytest.fixture
def emulator_backend() -> Iterator[EmulatorBackend]:
    """The lazy emulator, whatever NUMBAXFER_EMULATOR_SCHEDULE says: copies and kernels
    run only when something forces them, so a raw program's race is wrong every time.
    It runs beside a GPU-mode numba.cuda too. (Tests that want random interleavings
    install their own ``EmulatorBackend``.)"""
    with nx.use_backend("emulator", schedule="lazy") as backend:
        assert isinstance(backend, EmulatorBackend)
        yield backend
