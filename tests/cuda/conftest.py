from __future__ import annotations

from collections.abc import Iterator

import pytest

from numbaxfer import _backend


@pytest.fixture(autouse=True)
def numba_backend() -> Iterator[None]:
    """Every test here runs on the numba backend: the GPU or numba's simulator."""
    previous = _backend._current
    _backend.set_backend("numba")
    yield
    _backend._current = previous
