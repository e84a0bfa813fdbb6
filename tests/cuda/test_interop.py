"""Interop on numba (simulator on a CPU, the GPU on a GPU host): adopting foreign
arrays and streams, the lent numba view, and what the protocols refuse."""

from __future__ import annotations

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from tests.conftest import ON_GPU
from tests.kernels import add_one

N = 64
F32 = np.float32


def test_adopted_numba_array_is_an_owned_copy_endpoint_without_a_copy() -> None:
    foreign = cuda.to_device(np.arange(N, dtype=F32))
    dev = nx.adopt_array(foreign)
    assert dev.shape == (N,) and dev.dtype == F32
    s = nx.stream()
    s.launch(add_one, 1, N, dev)
    out = s.download(dev, into=nx.pinned_array(N, F32)).wait()
    np.testing.assert_array_equal(out.read(), np.arange(N, dtype=F32) + 1)
    s.synchronize()
    np.testing.assert_array_equal(foreign.copy_to_host(), np.arange(N, dtype=F32) + 1)
    dev.free()  # numbaxfer's reference only: the foreign array still works
    np.testing.assert_array_equal(foreign.copy_to_host(), np.arange(N, dtype=F32) + 1)
    s.close()


def test_adopt_refuses_what_it_cannot_own() -> None:
    with pytest.raises(TypeError, match="adopt"):
        nx.adopt_array(np.zeros(4, F32))
    with pytest.raises(TypeError):
        nx.adopt_stream("stream")
    with pytest.raises(ValueError, match="default stream"):
        nx.adopt_stream(0)


def test_as_numba_is_for_lent_handles() -> None:
    dev = nx.device_array(N, F32)
    with pytest.raises(nx.BorrowError, match="lent handles only"):
        dev.as_numba()
    with dev.lend() as view:
        arr = view.as_numba()
        assert tuple(arr.shape) == (N,)
    with pytest.raises(nx.BorrowError):
        view.as_numba()  # type: ignore[lend-escape]


@pytest.mark.skipif(ON_GPU, reason="on a GPU the protocols work: tests/gpu/test_interop_gpu.py")
def test_protocols_say_why_there_is_nothing_to_share_without_a_gpu() -> None:
    s = nx.stream()
    with pytest.raises(TypeError, match="no driver stream"):
        s.__cuda_stream__()
    with nx.device_array(N, F32).lend() as view, pytest.raises(TypeError, match="real GPU"):
        view.__dlpack__()
    s.close()


def test_cross_stream_waits_are_logged_at_debug_level(caplog: pytest.LogCaptureFixture) -> None:
    a, b = nx.stream(), nx.stream()
    dev = nx.device_array(N, F32)
    a.launch(add_one, 1, N, dev)
    with caplog.at_level("DEBUG", logger="numbaxfer"):
        b.launch(add_one, 1, N, dev)
    assert any("waits on the device" in r.getMessage() for r in caplog.records)
    assert any(dev.label in r.getMessage() for r in caplog.records)
    a.close()
    b.close()


def test_nvtx_switch_works_or_says_why_not() -> None:
    import subprocess
    import sys

    code = (
        "import numpy as np, numbaxfer as nx\n"
        "s = nx.stream(); d = nx.device_array(4, np.float32)\n"
        "h = s.upload(nx.pinned_array(4, np.float32), to=d).wait()\n"
        "from numbaxfer._trace import nvtx_enabled; print('nvtx', nvtx_enabled())\n"
    )
    env = {**__import__("os").environ, "NUMBAXFER_NVTX": "1"}
    run = subprocess.run(
        [sys.executable, "-W", "default", "-c", code], env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "nvtx True" in run.stdout or "no NVTX library" in run.stderr
