"""Test setup: pick the real GPU where one is present, numba's simulator otherwise.

numba chooses between the GPU and its simulator once, when numba.cuda is first
imported, so the choice is made here, before any test module imports it. Set
NUMBA_ENABLE_CUDASIM yourself to override (1: simulator, 0: GPU).
"""

from __future__ import annotations

import os

import pytest

from numbaxfer._backend import gpu_present

if "NUMBA_ENABLE_CUDASIM" not in os.environ:
    os.environ["NUMBA_ENABLE_CUDASIM"] = "0" if gpu_present() else "1"

ON_GPU = os.environ["NUMBA_ENABLE_CUDASIM"] != "1"


def pytest_report_header() -> str:
    where = "a real GPU" if ON_GPU else "numba's CUDA simulator (no GPU: gpu tests skip)"
    return f"numbaxfer: CUDA tests run on {where}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if ON_GPU:
        return
    skip = pytest.mark.skip(
        reason="needs a real CUDA GPU: none found (libcuda/cuDeviceGetCount), or "
        "NUMBA_ENABLE_CUDASIM=1 is set"
    )
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
