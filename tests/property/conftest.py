"""Property tests run programs on the emulator. It runs in any process, but in a GPU
process these tests skip: `make test` runs them once, in its second, simulator pass."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return
    skip = pytest.mark.skip(
        reason="this process uses the GPU; `make test` runs the emulator's property tests "
        "once, in its second, simulator pass"
    )
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(skip)
