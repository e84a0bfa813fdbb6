"""Fixtures for the adversarial (issue 10) tests: backends, and wrapper backends that
fail or pause inside one backend call.

``backend`` runs a test on numba's simulator and on the lazy emulator; ``emulator`` on
the emulator only. Handles keep the backend they were created with, so a wrapper is
installed with ``nx.use_backend`` before the test creates any handle.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest

import numbaxfer as nx
from numbaxfer._backend import Backend
from numbaxfer._backend._emulator import EmulatorBackend

SIMULATED = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"


def _install(name: str) -> nx.BackendSwitch:
    if name == "emulator":
        if not SIMULATED:  # it would run; `make test` runs these in its simulator pass
            pytest.skip("the emulator's adversarial tests run in the simulator pass")
        return nx.use_backend("emulator")
    return nx.use_backend("numba")


@pytest.fixture(params=["numba", "emulator"])
def backend(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The test runs once on numba (simulator or GPU) and once on the lazy emulator."""
    with _install(request.param) as installed:
        yield installed


@pytest.fixture
def emulator() -> Iterator[EmulatorBackend]:
    """The lazy emulator only (races that need a queued copy to run later)."""
    with _install("emulator") as real:
        assert isinstance(real, EmulatorBackend)
        yield real


@pytest.fixture
def numba_backend() -> Iterator[Any]:
    """numba's simulator (or the GPU): launches are refused by numba at once."""
    with _install("numba") as installed:
        yield installed


class Wrapper:
    """A backend that delegates everything to ``real`` except the calls it intercepts.

    ``fail(method, exc, after=False)``: the next call of ``method`` raises ``exc``
    (before the real call, or after it with ``after=True``).
    ``pause(method, thread)``: the next call of ``method`` from ``thread`` runs the real
    call, then sets ``paused`` and blocks until ``resume`` is set (or ``timeout``).
    """

    def __init__(self, real: Any) -> None:
        self._real = real
        self._fail: dict[str, tuple[BaseException, bool, int]] = {}
        self._pause: dict[str, threading.Thread | None] = {}
        self._pause_before: dict[str, bool] = {}
        self.paused = threading.Event()
        self.resume = threading.Event()
        self.timeout = 2.0
        self.calls: list[str] = []

    def fail(self, method: str, exc: BaseException, *, after: bool = False, skip: int = 0) -> None:
        """Raise ``exc`` at the call of ``method`` after ``skip`` unharmed calls."""
        self._fail[method] = (exc, after, skip)

    def pause(
        self, method: str, thread: threading.Thread | None = None, *, before: bool = False
    ) -> None:
        self._pause[method] = thread
        self._pause_before[method] = before

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if not callable(attr) or name.startswith("__"):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            failing = self._fail.get(name)
            if failing is not None:
                exc, after, skip = failing
                if skip > 0:
                    self._fail[name] = (exc, after, skip - 1)
                else:
                    del self._fail[name]
                    if not after:
                        raise exc
                    attr(*args, **kwargs)
                    raise exc
            if name in self._pause:
                who = self._pause[name]
                if who is None or who is threading.current_thread():
                    del self._pause[name]
                    if self._pause_before.pop(name):
                        self.paused.set()
                        self.resume.wait(self.timeout)
                        return attr(*args, **kwargs)
                    result = attr(*args, **kwargs)
                    self.paused.set()
                    self.resume.wait(self.timeout)
                    return result
            return attr(*args, **kwargs)

        return call


@pytest.fixture
def wrap(backend: Any) -> Iterator[Wrapper]:
    """The parametrised backend, wrapped (see :class:`Wrapper`), installed as current."""
    w = Wrapper(backend)
    with nx.use_backend(cast(Backend, w)):
        yield w


@pytest.fixture
def wrap_emulator(emulator: EmulatorBackend) -> Iterator[Wrapper]:
    w = Wrapper(emulator)
    with nx.use_backend(cast(Backend, w)):
        yield w


Thunk = Callable[[], Any]


def run_threads(*fns: Thunk) -> list[BaseException | None]:
    """Run each function in its own thread; return what each raised (None: nothing)."""
    errors: list[BaseException | None] = [None] * len(fns)

    def body(i: int, fn: Thunk) -> None:
        try:
            fn()
        except BaseException as e:
            errors[i] = e

    threads = [threading.Thread(target=body, args=(i, fn)) for i, fn in enumerate(fns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return errors
