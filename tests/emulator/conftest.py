from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from numbaxfer import _backend


@pytest.fixture(autouse=True)
def emulator_backend() -> Iterator[None]:
    """Every test here runs on the lazy emulator: copies run only when forced."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":
        pytest.skip(
            "the emulator runs kernels on numba's simulator and this process uses the GPU; "
            "`make test` runs these tests in a second, simulator pass"
        )
    previous = _backend._current
    _backend.set_backend("emulator")
    yield
    _backend._current = previous
