"""The fault harnesses run on numbaxfer's emulator, which runs kernels on numba's
simulator: skip where this process uses a real GPU."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from numbaxfer import _backend


@pytest.fixture(autouse=True)
def restore_backend() -> Iterator[None]:
    """Each case installs its own wrapper backend; put the process's back afterwards."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":
        pytest.skip("the fault harnesses run on the emulator (numba's simulator underneath)")
    previous = _backend._current
    yield
    _backend._current = previous
