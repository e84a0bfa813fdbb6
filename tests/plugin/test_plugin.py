"""The pytest plugin (numbaxfer.testing) on a user's test suite, run as a user runs it.

Each run is a fresh ``python -m pytest -p numbaxfer.testing`` in a temporary directory,
with ``NUMBA_ENABLE_CUDASIM`` unset and a library that imports numba before numbaxfer:
numba.cuda is in GPU mode (on a machine with no GPU), and the emulator still runs it.
(With numbaxfer installed, the ``pytest11`` entry point loads the plugin; ``-p`` does
the same from this checkout and is a no-op beside the entry point, which has its name.)
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: The user's library: the seed bug with numbaxfer, the seed bug written the numba way,
#: and a race through a kept view that no checker sees.
MYLIB = """\
'''A user's library: three ways to race an asynchronous copy.'''

import numpy as np
from numba import cuda  # numba first: it picks GPU mode (no NUMBA_ENABLE_CUDASIM here)

import numbaxfer as nx


@cuda.jit
def scale(a, factor):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor


def seed_program(n=64):
    '''The seed bug with numbaxfer: a host write while the upload still reads.'''
    s = nx.stream()
    host = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    with host.write() as a:
        a[:] = 1.0
    up = s.upload(host, to=dev)
    with host.write() as a:  # BUG: the copy may still be reading host
        a[-1] = 2.0
    host = up.wait()
    out = s.download(dev, into=host).wait()
    return float(out.read()[-1])


def raw_seed_program(cuda, n=64):
    '''The same seed bug written the numba way (``cuda``: numba.cuda, or the emulator's).'''
    s = cuda.stream()
    host = cuda.pinned_array(n, np.float32)
    dev = cuda.device_array(n, np.float32)
    host[:] = 1.0
    dev.copy_to_device(host, stream=s)
    host[-1] = 2.0  # BUG: nothing stops this write racing the copy
    s.synchronize()
    return float(dev.copy_to_host()[-1])


def doubled_total(values, *, fixed=False):
    '''Upload, double on the device, download; total. The bug: a view kept across the
    download (numbaxfer's known hole: views are plain numpy arrays).'''
    s = nx.stream()
    host = nx.pinned_copy(values)
    dev = nx.device_array(host.shape, host.dtype)
    host = s.upload(host, to=dev).wait()
    s.launch(scale, (values.size + 31) // 32, 32, dev, 2.0)
    view = host.read()  # an alias of host's memory, kept
    down = s.download(dev, into=host)
    early = float(view.sum())  # BUG: the download may not have landed yet
    host = down.wait()
    s.close()
    return float(host.read().sum()) if fixed else early
"""

#: The user's tests: the fixtures and the marker.
TEST_MYLIB = """\
import numpy as np
import pytest

import mylib

VALUES = np.arange(64, dtype=np.float32)


def test_seed_program(nx_emulator):
    assert mylib.seed_program() == 1.0


def test_raw_seed_program(nx_raw_cuda):
    assert mylib.raw_seed_program(nx_raw_cuda) == 1.0


@pytest.mark.numbaxfer_emulator
def test_doubled_total():
    assert mylib.doubled_total(VALUES) == 2 * VALUES.sum()


@pytest.mark.numbaxfer_emulator
def test_doubled_total_fixed():
    assert mylib.doubled_total(VALUES, fixed=True) == 2 * VALUES.sum()
"""

#: More user tests, for the options: an unmarked test, explicit schedules on a marker,
#: and a fixture made after the emulator is installed.
TEST_OPTIONS = """\
import pytest

import numbaxfer as nx


@pytest.fixture
def stream():
    s = nx.stream()
    yield s
    s.close()


def test_unmarked(nx_schedule):
    assert nx_schedule is None or nx.current_backend().name == "emulator"


@pytest.mark.numbaxfer_emulator(schedules=["eager", "random:9"])
def test_marked_schedules(nx_schedule, stream):
    backend = nx.current_backend()
    assert backend.name == "emulator" and str(backend.schedule) == nx_schedule
    assert stream._core.backend is backend  # the fixture was made on the emulator
"""


def run_user_suite(tmp: Path, *args: str, **files: str) -> tuple[dict[str, str], str]:
    """Run pytest on ``files`` in ``tmp``, in a fresh process as a user would; return
    each test's outcome by id (``passed``, ``failed``, ``skipped``) and the output."""
    for name, text in files.items():
        (tmp / f"{name}.py").write_text(text)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA", "PYTEST"))}
    env["PYTHONPATH"] = str(ROOT)
    xml = tmp / "report.xml"
    command = [sys.executable, "-m", "pytest", "-p", "numbaxfer.testing"]
    command += ["-p", "no:cacheprovider", "-q", "-rA", f"--junitxml={xml}", *args]
    done = subprocess.run(
        command,
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    outcomes: dict[str, str] = {}
    if xml.exists():
        for case in ET.parse(xml).getroot().iter("testcase"):
            kinds = {child.tag for child in case}
            outcome = (
                "failed"
                if kinds & {"failure", "error"}
                else "skipped"
                if "skipped" in kinds
                else "passed"
            )
            outcomes[case.attrib["name"]] = outcome
    return outcomes, output


def test_the_user_suite_finds_the_races_on_a_cpu(tmp_path: Path) -> None:
    outcomes, output = run_user_suite(tmp_path, mylib=MYLIB, test_mylib=TEST_MYLIB)
    schedules = ["nx-lazy", "nx-eager", "nx-random1", "nx-random2"]
    # The seed bug with numbaxfer: refused at the offending line, on every schedule.
    for s in schedules:
        assert outcomes[f"test_seed_program[{s}]"] == "failed", output
    assert "UseAfterTransferError: cannot write() PinnedArray" in output
    assert "mylib.py:23" in output  # where the buffer moved: the upload's line
    # The seed bug written the numba way: wrong under lazy (every time), right eagerly.
    assert outcomes["test_raw_seed_program[nx-lazy]"] == "failed", output
    assert outcomes["test_raw_seed_program[nx-eager]"] == "passed", output
    assert "assert 2.0 == 1.0" in output
    # The kept view: no checker sees it; the lazy emulator reads it stale.
    assert outcomes["test_doubled_total[nx-lazy]"] == "failed", output
    assert outcomes["test_doubled_total[nx-eager]"] == "passed", output
    # The corrected code is right on every schedule.
    for s in schedules:
        assert outcomes[f"test_doubled_total_fixed[{s}]"] == "passed", output
    # A failure names its schedule and how to run it again.
    assert "--numbaxfer-schedules=random:1" in output
    assert "numbaxfer emulator (lazy: copies run only when forced)" in output


def test_options_choose_schedules_and_emulate_every_test(tmp_path: Path) -> None:
    outcomes, output = run_user_suite(
        tmp_path, "--numbaxfer-schedules=lazy,random:5", test_options=TEST_OPTIONS
    )
    assert outcomes == {
        "test_unmarked": "passed",
        "test_marked_schedules[nx-eager]": "passed",
        "test_marked_schedules[nx-random9]": "passed",
    }, output
    outcomes, output = run_user_suite(tmp_path, "--numbaxfer-emulator", "-k", "unmarked")
    assert outcomes == {
        f"test_unmarked[nx-{s}]": "passed" for s in ("lazy", "eager", "random1", "random2")
    }, output


def test_a_bad_schedule_is_a_usage_error(tmp_path: Path) -> None:
    _, output = run_user_suite(
        tmp_path, "--numbaxfer-schedules=lazy,sometimes", test_options=TEST_OPTIONS
    )
    assert "--numbaxfer-schedules: NUMBAXFER_EMULATOR_SCHEDULE='sometimes'" in output, output


def test_the_entry_point_names_the_plugin_module() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    section = text.split("[project.entry-points.pytest11]\n", 1)[1].split("\n\n", 1)[0]
    assert section.strip() == '"numbaxfer.testing" = "numbaxfer.testing"'


@pytest.mark.parametrize("schedule", ["lazy", "random:3"])
def test_emulate_switches_and_restores(schedule: str) -> None:
    import numbaxfer as nx
    from numbaxfer import _backend
    from numbaxfer.testing import EmulatorBackend, emulate

    before = _backend._current
    with emulate(schedule, trace=True) as emu:
        assert isinstance(emu, EmulatorBackend) and nx.current_backend() is emu
        assert str(emu.schedule) == schedule and emu.trace == []
    assert _backend._current is before
