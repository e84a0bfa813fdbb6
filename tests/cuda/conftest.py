from __future__ import annotations

from collections.abc import Iterator

import pytest

import numbaxfer as nx


@pytest.fixture(autouse=True)
def numba_backend() -> Iterator[None]:
    """Every test here runs on the numba backend: the GPU or numba's simulator."""
    with nx.use_backend("numba"):
        yield
