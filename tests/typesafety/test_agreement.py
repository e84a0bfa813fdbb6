"""Static/dynamic agreement: every case file with a ``# RUN:`` header is executed on
numba's CUDA simulator, and it must fail at run time exactly where mypy flags it.

* ``raises E``: the case raises ``nx.E``, and the line of the innermost traceback frame in
  the case file is one that mypy reported (``via-call``: some frame of the case file is,
  on its traceback or on that of the exception it was raised while handling: the use
  happens inside a function that the flagged line calls);
* ``warns ResourceWarning``: a dropped transfer warns, on a flagged line (``anywhere``:
  the warning itself is checked, not its line, and mypy must have flagged some line);
* ``ok``: the case runs without an exception or a ResourceWarning.

The flagged lines are mypy's actual reports for the file (the shared cold run), which
test_cases.py checks against the inline expectations.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .support import HERE, ROOT, Case, MypyRun, all_cases, case_params

pytest.importorskip("mypy", reason="the static checker tests need mypy")

RUNNABLE = [c for c in all_cases() if c.run]


def _recorded(path: Path) -> dict[str, dict[str, Any]]:
    """Results recorded elsewhere (a GPU host) by runtime_runner.py run from the repository
    root on relative paths (one JSON file, or a folder of them, one per batch): their files
    are taken relative to this checkout's root."""
    results: list[dict[str, Any]] = []
    for part in sorted(path.glob("*.json")) if path.is_dir() else [path]:
        results += json.loads(part.read_text())

    def here(file: str) -> str:
        return str((ROOT / file).resolve())

    for r in results:
        r["frames"] = [[here(f), line] for f, line in r["frames"]]
        r["warnings"] = [[cat, here(f), line] for cat, f, line in r["warnings"]]
    return {here(r["path"]): r for r in results}


@pytest.fixture(scope="session")
def runtime_results() -> dict[str, dict[str, Any]]:
    # NUMBAXFER_AGREEMENT_RESULTS=FILE or FOLDER: how the cases ended on another machine
    # (recorded on a GPU host with `python3 tests/typesafety/runtime_runner.py
    # tests/typesafety/cases/... > FILE`), checked here against this machine's mypy run
    recorded = os.environ.get("NUMBAXFER_AGREEMENT_RESULTS")
    if recorded:
        return _recorded(Path(recorded))
    env = dict(os.environ)
    # NUMBAXFER_AGREEMENT_GPU=1 on a GPU host: the cases run on the device instead (a
    # measurement; cases whose path depends on done() may take another branch there)
    if env.get("NUMBAXFER_AGREEMENT_GPU") != "1":
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    env.pop("NUMBAXFER_BACKEND", None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, str(HERE / "runtime_runner.py"), *(str(c.path) for c in RUNNABLE)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    results: list[dict[str, Any]] = json.loads(proc.stdout)
    return {str(Path(r["path"]).resolve()): r for r in results}


def test_enough_runnable_cases() -> None:
    assert sum(1 for c in RUNNABLE if c.run and c.run != "ok" and not c.xfail) >= 30


@pytest.mark.parametrize("case", case_params(RUNNABLE))
def test_agreement(
    case: Case, mypy_cold: MypyRun, runtime_results: dict[str, dict[str, Any]]
) -> None:
    assert case.run is not None
    result = runtime_results[str(case.path.resolve())]
    flagged = {e.line for e in mypy_cold.errors_for(case)}
    words = case.run.split()
    me = str(case.path.resolve())
    frames = [line for (file, line) in result["frames"] if str(Path(file).resolve()) == me]
    # (and of the exceptions it was raised while handling: a cleanup that failed after
    # the first failure, in ``finally`` or ``__exit__``, raises the last one)
    context = [
        line for (file, line) in result.get("context_frames", []) if str(Path(file).resolve()) == me
    ]
    warned = [w for w in result["warnings"] if w[0] == "ResourceWarning"]

    if words[0] == "ok":
        assert result["exception"] is None, result
        assert not warned, warned
        return
    if words[0] == "raises":
        assert result["exception"] == words[1], result
        assert frames, result
        if "via-call" in words:
            assert flagged & set(frames + context), (
                f"raised on lines {frames} of {case.rel}, mypy flagged {sorted(flagged)}"
            )
        else:
            assert frames[-1] in flagged, (
                f"{words[1]} raised at {case.rel}:{frames[-1]}, mypy flagged {sorted(flagged)}"
            )
        return
    if words[0] == "warns":
        assert result["exception"] is None, result
        assert warned, f"no ResourceWarning from {case.rel}"
        # Where the warning's line says nothing, mypy must still have flagged the case.
        assert flagged, f"{case.rel} warns a ResourceWarning; mypy flagged nothing"
        if "anywhere" not in words:
            lines = {w[2] for w in warned if str(Path(w[1]).resolve()) == me}
            assert lines & flagged, f"warned at {sorted(lines)}, mypy flagged {sorted(flagged)}"
        return
    pytest.fail(f"unknown RUN header in {case.rel}: {case.run}")
