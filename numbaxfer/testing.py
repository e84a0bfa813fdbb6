"""Test your own code on numbaxfer's lazy CPU emulator: a pytest plugin and helpers.

Installed with numbaxfer, the plugin is registered through the ``pytest11`` entry point
(name ``numbaxfer.testing``); from a source checkout, load it with
``-p numbaxfer.testing`` or ``pytest_plugins = ["numbaxfer.testing"]`` in the root
conftest. It offers:

* the fixture ``nx_emulator``: the test runs once per emulator schedule (by default
  ``lazy``, ``eager``, ``random:1``, ``random:2``) with the emulator installed as the
  current backend; it gives the :class:`EmulatorBackend` (``pending()``,
  ``sync_all()``, ``describe()``, ``trace`` with ``trace=True``);
* the marker ``@pytest.mark.numbaxfer_emulator`` (on a test, class or module, with
  ``schedules=[...]`` to choose): the same without asking for the fixture; the
  emulator is installed before the test's other fixtures are made;
* the fixture ``nx_schedule``: the schedule text of this run (``None`` off the emulator);
* the fixture ``nx_raw_cuda``: :class:`RawEmulatedCuda` on the same emulator, the
  numba.cuda calls unchecked, for code written the numba way;
* options: ``--numbaxfer-schedules="lazy random:7"`` (or the ini option
  ``numbaxfer_schedules``) picks the schedules; ``--numbaxfer-emulator`` runs every
  test of the session on the emulator.

A failing emulated test's report names the schedule and its seed, and the option that
runs it again the same way. The emulator runs whatever was imported first: no
``NUMBA_ENABLE_CUDASIM``, no GPU, and it works beside a GPU-mode ``numba.cuda``.
Handles keep the backend they were made with: arrays and streams made at import time
or in a fixture set up before the switch stay on the backend that was current then.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from typing import Any, Final

import pytest

from ._backend import BackendSwitch, use_backend
from ._backend._emulator import EmulatorBackend, RawEmulatedCuda, Schedule

__all__ = [
    "DEFAULT_SCHEDULES",
    "EmulatorBackend",
    "RawEmulatedCuda",
    "Schedule",
    "emulate",
]

#: The schedules a test runs under when nothing else is said: the latest possible
#: (lazy), a baseline (eager: a correct program gives the same result) and two seeded
#: interleavings of streams.
DEFAULT_SCHEDULES: Final = ("lazy", "eager", "random:1", "random:2")

_MARKER: Final = "numbaxfer_emulator"
_BACKEND: Final = pytest.StashKey[EmulatorBackend]()


def emulate(schedule: str | Schedule = "lazy", *, trace: bool = False) -> BackendSwitch:
    """Switch to the emulator with ``schedule``; as a context manager, switch back at
    the end of the block: ``with emulate("random:7") as emu: ...``."""
    return use_backend("emulator", schedule=schedule, trace=trace)


# -- the pytest plugin -----------------------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("numbaxfer", "numbaxfer's lazy CPU emulator")
    group.addoption(
        "--numbaxfer-schedules",
        dest="numbaxfer_schedules",
        default=None,
        help="emulator schedules for nx_emulator tests, separated by spaces or commas: "
        "lazy, eager, random (a fresh seed each run), random:SEED. "
        f"Default: the ini option numbaxfer_schedules, else {' '.join(DEFAULT_SCHEDULES)}.",
    )
    group.addoption(
        "--numbaxfer-emulator",
        dest="numbaxfer_emulator",
        action="store_true",
        default=False,
        help="run every test on numbaxfer's emulator, once per schedule",
    )
    parser.addini(
        "numbaxfer_schedules",
        type="args",
        default=list(DEFAULT_SCHEDULES),
        help="emulator schedules for nx_emulator tests (see --numbaxfer-schedules)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{_MARKER}(schedules=None): run the test on numbaxfer's lazy CPU emulator, once "
        "per schedule (lazy, eager, random:SEED, ...; default: --numbaxfer-schedules)",
    )
    _checked(_configured(config), "--numbaxfer-schedules")  # a bad one stops the session


def _configured(config: pytest.Config) -> list[str]:
    given = config.getoption("numbaxfer_schedules")
    if given:
        return str(given).replace(",", " ").split()
    value = config.getini("numbaxfer_schedules")
    return [str(s) for s in value] if value else list(DEFAULT_SCHEDULES)


def _checked(schedules: Sequence[Any], where: str) -> list[str]:
    texts = [str(s) for s in schedules]
    if not texts:
        raise pytest.UsageError(f"{where}: no emulator schedule given")
    for text in texts:
        try:
            Schedule.parse(text)
        except ValueError as e:
            raise pytest.UsageError(f"{where}: {e}") from None
    return texts


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker(_MARKER)
    wanted = (
        marker is not None
        or "nx_emulator" in metafunc.fixturenames
        or "nx_raw_cuda" in metafunc.fixturenames
        or bool(metafunc.config.getoption("numbaxfer_emulator"))
    )
    if not wanted or "nx_schedule" not in metafunc.fixturenames:
        return
    where = metafunc.definition.nodeid
    if marker is not None and (marker.kwargs.get("schedules") or marker.args):
        given = marker.kwargs.get("schedules") or marker.args
        schedules = _checked([given] if isinstance(given, str) else list(given), where)
    else:
        schedules = _checked(_configured(metafunc.config), "--numbaxfer-schedules")
    metafunc.parametrize(
        "nx_schedule", schedules, ids=[f"nx-{s.replace(':', '')}" for s in schedules]
    )


@pytest.fixture
def nx_schedule() -> str | None:
    """The emulator schedule of this run; ``None`` where the test is not emulated."""
    return None


@pytest.fixture
def nx_emulator(
    request: pytest.FixtureRequest, nx_schedule: str | None
) -> Iterator[EmulatorBackend]:
    """The test runs on numbaxfer's emulator, once per schedule; this is the backend."""
    with use_backend("emulator", schedule=nx_schedule or "lazy") as backend:
        assert isinstance(backend, EmulatorBackend)
        request.node.stash[_BACKEND] = backend
        yield backend


@pytest.fixture
def nx_raw_cuda(nx_emulator: EmulatorBackend) -> RawEmulatedCuda:
    """numba.cuda's calls on the test's emulator, unchecked (``stream()``,
    ``pinned_array()``, ``device_array()``, ``copy_to_device(..., stream=s)``,
    ``kernel(k)[grid, block, s](...)``...): a race in code written the numba way gives
    the wrong answer here, deterministically."""
    return RawEmulatedCuda(nx_emulator)


@pytest.fixture(autouse=True)
def _numbaxfer_emulated(request: pytest.FixtureRequest, nx_schedule: str | None) -> None:
    """Marked tests (and all, with --numbaxfer-emulator) get the emulator before their
    other fixtures are made."""
    if nx_schedule is not None:
        request.getfixturevalue("nx_emulator")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    backend = item.stash.get(_BACKEND, None)
    if backend is not None and report.failed:
        report.sections.append(
            (
                "numbaxfer emulator",
                f"ran on the {backend.describe()}; run it again the same way with "
                f"--numbaxfer-schedules={backend.schedule}",
            )
        )
    return report


def pytest_report_header(config: pytest.Config) -> str | None:
    if config.getoption("numbaxfer_emulator"):
        return f"numbaxfer: every test on the emulator, schedules {' '.join(_configured(config))}"
    return None
