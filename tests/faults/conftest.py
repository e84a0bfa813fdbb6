"""The fault harnesses run on numbaxfer's emulator. It runs in any process, but in a
GPU process these cases skip: `make test` runs them in its second, simulator pass."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import numbaxfer as nx


@pytest.fixture(autouse=True)
def restore_backend() -> Iterator[None]:
    """Each case installs its own wrapper backend; put the process's back afterwards."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":
        pytest.skip("the fault harnesses run in the simulator pass of `make test`")
    # Installing the current backend again gives a switch whose restore() puts back
    # what was current before this case, whatever the case installs meanwhile.
    with nx.use_backend(nx.current_backend()):
        yield
