"""``device=`` on the numba backend (numba's simulator, or a GPU): the current device
works by number, and a device past the last one is refused, with the count."""

from __future__ import annotations

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from tests.kernels import add_one

N = 32


def test_device_0_works_by_number() -> None:
    s = nx.stream(device=0)
    dev = nx.device_array(N, np.float32, device=0)
    assert s.device == dev.device == 0 == nx.stream().device
    host = s.upload(nx.pinned_copy(np.arange(N, dtype=np.float32)), to=dev).wait()
    s.launch(add_one, 1, N, dev)
    out = s.download(dev, into=nx.pinned_array(N, np.float32)).wait()
    assert (out.read() == host.read() + 1).all()


def test_the_device_after_the_last_is_refused() -> None:
    count = nx.device_count()
    assert count == (len(cuda.gpus) if cuda.is_available() else 1)
    with pytest.raises(ValueError, match=rf"device={count} does not exist: .* {count} device"):
        nx.device_array(N, np.float32, device=count)
    with pytest.raises(ValueError, match=rf"nx.stream\(\) at {__file__}:\d+: device={count} "):
        nx.stream(device=count)
