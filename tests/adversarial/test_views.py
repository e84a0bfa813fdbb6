"""Issue 10, class 5: views that can be made writable. A read-only view handed out by
numbaxfer must stay read-only: `setflags(write=True)` is refused."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.adversarial.conftest import SIMULATED
from tests.kernels import add_one

N = 64
F32 = np.float32


def test_read_view_cannot_be_made_writable(backend: Any) -> None:
    """Class 5 (writable views): `h.read().setflags(write=True)` raises ValueError, so a
    read view cannot write the buffer (e.g. while a later copy owns it)."""
    h = nx.pinned_array(N, F32)
    view = h.read()
    with pytest.raises(ValueError):
        view.setflags(write=True)


def test_read_view_of_a_mapped_array_cannot_be_made_writable(backend: Any) -> None:
    """Class 5 (writable views): the same for a MappedArray's read view."""
    view = nx.mapped_array(N, F32).read()
    with pytest.raises(ValueError):
        view.setflags(write=True)


def test_lent_view_cannot_be_made_writable(backend: Any) -> None:
    """Class 5 (writable views): a view read from a Lent handle cannot be made
    writable (the lend is read-only by contract)."""
    h = nx.pinned_array(N, F32)
    with h.lend() as lent:
        view = lent.read()
        with pytest.raises(ValueError):
            view.setflags(write=True)


def test_racy_peek_cannot_be_made_writable(backend: Any) -> None:
    """Class 5 (writable views): `mapping.racy_peek()` is read-only and stays so while
    kernels may write the memory."""
    s = nx.stream()
    mp = s.map(nx.mapped_array(N, F32))
    s.launch(add_one, 1, N, mp.device)
    peek = mp.racy_peek()
    try:
        with pytest.raises(ValueError):
            peek.setflags(write=True)
    finally:
        mp.wait()
        s.close()


@pytest.mark.gpu
@pytest.mark.skipif(SIMULATED, reason="__cuda_array_interface__ needs a real GPU")
def test_lent_device_interface_is_readonly(backend: Any) -> None:
    """Class 5 (writable views): a lent device array's `__cuda_array_interface__`
    says the data is read-only (`data[1]` is True), so consumers do not write it."""
    dev = nx.device_array(N, F32)
    with dev.lend() as view:
        assert view.__cuda_array_interface__["data"][1] is True
