from __future__ import annotations

from collections.abc import Iterator

import pytest

import numbaxfer as nx


@pytest.fixture(autouse=True)
def emulator_backend() -> Iterator[None]:
    """Every test here runs on the lazy emulator: copies run only when forced. It runs
    in any process, beside numba's simulator or a GPU-mode numba.cuda."""
    with nx.use_backend("emulator"):
        yield
