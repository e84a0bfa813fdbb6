"""Run a small program in a fresh interpreter, with or without guard mode."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ACCESS = "# ACCESS"


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    access_line: int | None  # the line of the program marked ``# ACCESS``
    script: Path

    @property
    def segfaulted(self) -> bool:
        return self.returncode == -signal.SIGSEGV

    def describe(self) -> str:
        return f"rc={self.returncode}\nstdout:\n{self.stdout}\nstderr:\n{self.stderr[-3000:]}"


def run_program(
    source: str,
    tmp: Path,
    *,
    guard: bool = True,
    backend: str = "emulator",
    name: str = "prog.py",
) -> Run:
    """Run ``source`` (dedented) as a script with this worktree's numbaxfer."""
    text = textwrap.dedent(source)
    script = tmp / name
    script.write_text(text)
    marked = [i for i, line in enumerate(text.splitlines(), 1) if ACCESS in line]
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBAXFER_")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("PYTHONFAULTHANDLER", None)
    if backend == "simulator":
        env["NUMBA_ENABLE_CUDASIM"] = "1"
        env["NUMBAXFER_BACKEND"] = "numba"
    elif backend == "gpu":  # numba-cuda on a real GPU
        env.pop("NUMBA_ENABLE_CUDASIM", None)
        env["NUMBAXFER_BACKEND"] = "numba"
    else:
        env["NUMBAXFER_BACKEND"] = backend
    if guard:
        env["NUMBAXFER_GUARD"] = "1"
    done = subprocess.run(
        [sys.executable, str(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp,
    )
    return Run(done.returncode, done.stdout, done.stderr, marked[0] if marked else None, script)


def assert_stopped_at_access(run: Run) -> None:
    """The program died of SIGSEGV and faulthandler named the marked line."""
    assert run.segfaulted, run.describe()
    assert "Segmentation fault" in run.stderr, run.describe()
    assert f'File "{run.script}", line {run.access_line}' in run.stderr, run.describe()
