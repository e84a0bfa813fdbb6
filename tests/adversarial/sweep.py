"""KeyboardInterrupt at every line of one public call, in a child process.

``python -m tests.adversarial.sweep SCENARIO BACKEND`` runs SCENARIO once per line
event of numbaxfer's handle layer, interrupting the call there (see
``interrupts.interrupt_at``), then checks that nothing was lost. It prints one line
per problem and exits 1 if there was any. A child process, because an interrupt that
leaves one of numbaxfer's locks held deadlocks every later call in the process.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

import numbaxfer as nx
from numbaxfer import _backend
from tests.adversarial.interrupts import Absorbed, interrupt_at

N = 64
F32 = np.float32
LIMIT = 400
#: seconds a follow-up call may take before it counts as a deadlock
PATIENCE = 3.0

#: Everything every scenario made stays alive to the end: a destructor of an earlier
#: scenario's garbage must not run (and be interrupted) inside a later traced call.
_KEEP: list[Any] = []

Check = Callable[[], None]
Scenario = Callable[[], tuple[Callable[[], Any], Check]]


def bounded(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` in a thread; raise TimeoutError (a deadlock) if it does not finish."""
    box: dict[str, Any] = {}

    def body() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:
            box["error"] = e

    t = threading.Thread(target=body, daemon=True)
    t.start()
    t.join(PATIENCE)
    if t.is_alive():
        raise TimeoutError("deadlock: the follow-up call never returned")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def _filled(value: float) -> nx.PinnedArray[nx.Owned, np.float32]:
    h = nx.pinned_array(N, F32)
    with h.write() as a:
        a[:] = value
    return h


def wait() -> tuple[Callable[[], Any], Check]:
    s = nx.stream()
    t = s.upload(_filled(2.0), to=nx.device_array(N, F32))

    def check() -> None:
        assert not t.completed, "interrupted wait() completed the transfer"
        h = bounded(t.wait)
        assert float(h.read()[0]) == 2.0
        bounded(s.close)

    return t.wait, check


def take() -> tuple[Callable[[], Any], Check]:
    s = nx.stream()
    pool = nx.PinnedPool(1, N, F32)
    b = pool.take()
    assert b is not None
    pool.recycle(s.download(nx.device_array(N, F32), into=b))

    def check() -> None:
        got = bounded(lambda: pool.take(timeout=1.0))
        assert got is not None, "the buffer was lost"
        bounded(s.close)

    return pool.take, check


def upload() -> tuple[Callable[[], Any], Check]:
    s = nx.stream()
    h = _filled(3.0)
    dev = nx.device_array(N, F32)

    def check() -> None:
        assert float(bounded(h.read)[0]) == 3.0, "src not usable after the interrupt"
        bounded(lambda: s.upload(h, to=dev).wait())
        bounded(s.close)

    return lambda: _KEEP.append(s.upload(h, to=dev)), check


def download() -> tuple[Callable[[], Any], Check]:
    s = nx.stream()
    h = _filled(0.0)
    dev = nx.device_array(N, F32)

    def check() -> None:
        bounded(h.read)
        bounded(lambda: s.download(dev, into=h).wait())
        bounded(s.close)

    return lambda: _KEEP.append(s.download(dev, into=h)), check


def pipeline_wait() -> tuple[Callable[[], Any], Check]:
    pipe = nx.Pipeline(16, F32, slots=2)
    run = pipe.map(_filled(1.0), into=_filled(0.0), step=lambda s, a, b: s.copy(a, to=b).wait())

    def check() -> None:
        _src, dst = bounded(run.wait)
        assert float(dst.read()[0]) == 1.0
        bounded(pipe.close)

    return run.wait, check


def drain() -> tuple[Callable[[], Any], Check]:
    s = nx.stream()
    pool = nx.PinnedPool(2, N, F32)
    for _ in range(2):
        b = pool.take()
        assert b is not None
        pool.recycle(s.download(nx.device_array(N, F32), into=b))

    def check() -> None:
        bounded(pool.drain)
        got = [bounded(lambda: pool.take(timeout=1.0)) for _ in range(2)]
        assert all(g is not None for g in got), "a buffer was lost"
        bounded(s.close)

    return pool.drain, check


def mapping_wait() -> tuple[Callable[[], Any], Check]:
    s = nx.stream()
    mp = s.map(nx.mapped_array(N, F32))

    def check() -> None:
        m = bounded(mp.wait)
        bounded(m.read)
        bounded(s.close)

    return mp.wait, check


SCENARIOS: dict[str, Scenario] = {
    "wait": wait,
    "take": take,
    "upload": upload,
    "download": download,
    "pipeline_wait": pipeline_wait,
    "drain": drain,
    "mapping_wait": mapping_wait,
}


def main(scenario: str, backend: str) -> int:
    if backend == "emulator":
        from numbaxfer._backend._emulator import EmulatorBackend

        _backend._current = EmulatorBackend()
    else:
        _backend.set_backend("numba")
    problems = 0
    for n in range(1, LIMIT):
        action, check = SCENARIOS[scenario]()
        _KEEP.append((action, check))
        try:
            if not interrupt_at(n, action):
                break
        except Absorbed:
            continue
        try:
            check()
        except TimeoutError as e:
            print(f"{scenario} interrupted at line event {n}: {e}")
            return 1  # the process is wedged
        except BaseException as e:
            problems += 1
            print(f"{scenario} interrupted at line event {n}: {type(e).__name__}: {e}"[:300])
    return 1 if problems else 0


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore", ResourceWarning)
    sys.exit(main(sys.argv[1], sys.argv[2]))
