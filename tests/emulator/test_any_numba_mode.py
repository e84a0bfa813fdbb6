"""The emulator whatever was imported first: the public switch, kernels run from their
Python source beside a GPU-mode numba.cuda, and the examples with only
``NUMBAXFER_BACKEND=emulator`` set (fresh processes, ``NUMBA_ENABLE_CUDASIM`` unset)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._backend._emulator import EmulatorBackend

from ..kernels import add_one
from . import kernel_features

ROOT = Path(__file__).resolve().parents[2]
F32 = np.dtype(np.float32)


def run_fresh(*args: str) -> subprocess.CompletedProcess[str]:
    """``python *args`` in a fresh process with NUMBAXFER_BACKEND=emulator and nothing
    else of numba's or numbaxfer's set."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA", "PYTEST"))}
    env.update(NUMBAXFER_BACKEND="emulator", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def test_kernel_features_run_on_the_emulator() -> None:
    assert "kernel features right on numbaxfer emulator" in kernel_features.main()


def test_kernel_features_run_beside_a_gpu_mode_numba() -> None:
    done = run_fresh("-m", "tests.emulator.kernel_features")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "numba.cuda in GPU mode" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("example", ["ping_pong", "copy_compute_events", "mapped_zero_copy"])
def test_an_example_runs_with_only_the_variable_set(example: str) -> None:
    # Each example imports numba before numbaxfer; all of them are run this way by hand
    # (docs/emulator.md), three here to keep the suite short.
    done = run_fresh(str(ROOT / "examples" / f"{example}.py"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"{example}: right"), done.stdout


def test_use_backend_switches_now_and_restores_at_exit() -> None:
    outer = nx.current_backend()  # the fixture's lazy emulator
    switch = nx.use_backend("emulator", schedule="random:7", trace=True)
    inner = switch.backend
    assert isinstance(inner, EmulatorBackend) and nx.current_backend() is inner
    assert str(inner.schedule) == "random:7" and inner.trace == []
    with nx.use_backend("emulator", schedule="eager") as eager:
        assert nx.current_backend() is eager is not inner
    assert nx.current_backend() is inner
    switch.restore()
    assert nx.current_backend() is outer


def test_a_backend_object_is_installed_as_it_is() -> None:
    mine = EmulatorBackend("lazy", trace=True)
    with nx.use_backend(mine) as got:
        assert got is mine and nx.current_backend() is mine
        s = nx.stream()
        s.close()
    assert mine.trace is not None


def test_use_backend_refuses_what_it_cannot_do() -> None:
    with pytest.raises(ValueError, match="not a numbaxfer backend"):
        nx.use_backend("cupy")
    with pytest.raises(ValueError, match="emulator backend only"):
        nx.use_backend("numba", schedule="lazy")
    with pytest.raises(ValueError, match="is not an emulator schedule"):
        nx.use_backend("emulator", schedule="sometimes")
    with pytest.raises(ValueError, match="apply when the emulator is named"):
        nx.use_backend(EmulatorBackend(), schedule="lazy")
    assert isinstance(_backend._current, EmulatorBackend)


def test_handles_keep_the_backend_they_were_made_with() -> None:
    dev = nx.device_array(8, F32)  # on the fixture's emulator
    with nx.use_backend("emulator", schedule="eager"):
        s = nx.stream()
        with pytest.raises(ValueError, match="belongs to another backend"):
            s.launch(add_one, 1, 8, dev)
        s.close()
    s = nx.stream()
    s.launch(add_one, 1, 8, dev)
    s.close()
