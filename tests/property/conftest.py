"""Property tests run programs on the emulator, whose kernels run on numba's simulator."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return
    skip = pytest.mark.skip(
        reason="the emulator runs kernels on numba's simulator and this process uses the "
        "GPU; `make test` runs these tests in a second, simulator pass"
    )
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(skip)
