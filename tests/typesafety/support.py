"""Shared machinery for the mypy-plugin case files in ``cases/`` (see conftest.py).

A case file states what mypy (with ``numbaxfer.mypy_plugin``) must report, inline:

    host.read()  # E: use-after-transfer "is used" "host = up.wait()"

``# E: CODE`` expects one error with that code on that line; each quoted fragment must
occur in its message (``\\"`` is a quote inside a fragment); several ``# E:`` may share a
line. Every error mypy reports must be expected, and every expectation met. Header
comments at the top of the file:

    # XFAIL: reason      a known gap: the test is a strict xfail (closing the gap fails it)
    # RUN: raises UseAfterTransferError via-call
    # RUN: raises BorrowError
    # RUN: warns ResourceWarning anywhere
    # RUN: ok
    # MYPY: >=2.4 reason  a case that needs that mypy or newer: skipped, with the reason,
                          on an older one (the oldest supported runs the corpus too)

``RUN`` cases are also executed on numba's simulator by ``test_agreement.py``: the raise
(or the warning) must happen on a line that mypy flags (``via-call``: on any frame of
the case file in the traceback, for uses inside a called function; ``anywhere``: the
warning's line is not checked, because a transfer leaked at the end of a function is
collected, and warns, at its caller).

mypy runs once over all case files, in-process (the mypy of this interpreter), cold,
with ``mypy-cases.ini``; the result is shared by the tests of this directory.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
CONFIG = HERE / "mypy-cases.ini"

_EXPECT = re.compile(r'#\s*E:\s*([a-z][a-z0-9-]*)((?:\s+"(?:[^"\\]|\\.)*")*)')
_NEEDS_MYPY = re.compile(r">=(\d+(?:\.\d+)*)\s+(\S.*)")
_RUN = re.compile(r"ok|raises [A-Z]\w*(?: via-call)?|warns ResourceWarning(?: anywhere)?")
_FRAGMENT = re.compile(r'"((?:[^"\\]|\\.)*)"')
_OUTPUT = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+): (?P<sev>error|note): (?P<msg>.*?)"
    r"(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


@dataclass(frozen=True)
class Expected:
    line: int
    code: str
    fragments: tuple[str, ...]


@dataclass(frozen=True)
class Reported:
    line: int
    code: str
    message: str


@dataclass
class Case:
    path: Path
    expected: list[Expected] = field(default_factory=list)
    xfail: str | None = None
    run: str | None = None
    #: (the oldest mypy version the case needs, why)
    needs_mypy: tuple[tuple[int, ...], str] | None = None

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def rel(self) -> str:
        return self.path.relative_to(ROOT).as_posix()


def parse_case(path: Path) -> Case:
    case = Case(path)
    header = True
    for lineno, text in enumerate(path.read_text().splitlines(), start=1):
        stripped = text.strip()
        if header and stripped.startswith("#"):
            if stripped.startswith("# XFAIL:"):
                case.xfail = stripped[len("# XFAIL:") :].strip()
            elif stripped.startswith("# MYPY:"):
                m = _NEEDS_MYPY.fullmatch(stripped[len("# MYPY:") :].strip())
                if m is None:
                    raise ValueError(f"{path.name}:{lineno}: MYPY header is not '>=X.Y reason'")
                case.needs_mypy = (tuple(int(x) for x in m.group(1).split(".")), m.group(2))
            elif stripped.startswith("# RUN:"):
                case.run = stripped[len("# RUN:") :].strip()
                if not _RUN.fullmatch(case.run):
                    raise ValueError(
                        f"{path.name}:{lineno}: RUN header {case.run!r} is not one of "
                        "'ok', 'raises ErrorName [via-call]', 'warns ResourceWarning "
                        "[anywhere]' (the words in brackets are optional, written bare)"
                    )
            continue
        header = False
        for m in _EXPECT.finditer(text):
            frags = tuple(f.replace('\\"', '"') for f in _FRAGMENT.findall(m.group(2)))
            case.expected.append(Expected(lineno, m.group(1), frags))
    return case


def all_cases() -> list[Case]:
    return [parse_case(p) for p in sorted(CASES_DIR.glob("*.py"))]


def mypy_args(cache_dir: Path, *extra: str) -> list[str]:
    return [
        "--config-file",
        str(CONFIG),
        "--cache-dir",
        str(cache_dir),
        "--no-error-summary",
        "--hide-error-context",
        "--no-pretty",
        "--show-absolute-path",
        *extra,
    ]


def parse_output(stdout: str) -> dict[str, list[Reported]]:
    """Errors by absolute file path (notes are dropped)."""
    out: dict[str, list[Reported]] = {}
    for line in stdout.splitlines():
        m = _OUTPUT.match(line)
        if m is None or m.group("sev") != "error":
            continue
        path = str(Path(m.group("path")).resolve())
        out.setdefault(path, []).append(
            Reported(int(m.group("line")), m.group("code") or "misc", m.group("msg"))
        )
    return out


def run_mypy(args: list[str], *, debug: bool = True) -> tuple[str, str, int]:
    """The mypy of this interpreter, in a subprocess run from the repository root.

    A subprocess, not mypy.api.run: mypy's command line skips the interpreter's teardown
    of its large heap, which costs seconds per run in-process. ``debug``: plugin bugs
    raise (NUMBAXFER_MYPY_PLUGIN_DEBUG=1) instead of degrading silently.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    if debug:
        env["NUMBAXFER_MYPY_PLUGIN_DEBUG"] = "1"
    else:
        env.pop("NUMBAXFER_MYPY_PLUGIN_DEBUG", None)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return proc.stdout, proc.stderr, proc.returncode


def config_variant(
    tmp_path: Path, name: str, *, plugins: str | None = None, skip_numpy: bool = False
) -> Path:
    """A copy of mypy-cases.ini with another plugin list and/or numpy left out."""
    text = CONFIG.read_text().replace("mypy_path = stubs", f"mypy_path = {ROOT / 'stubs'}")
    if plugins is not None:
        text = text.replace("plugins = numbaxfer.mypy_plugin", f"plugins = {plugins}")
    if skip_numpy:
        text += "\n[mypy-numpy.*]\nfollow_imports = skip\nfollow_imports_for_stubs = True\n"
    path = tmp_path / name
    path.write_text(text)
    return path


def compare(case: Case, reported: list[Reported]) -> list[str]:
    """Problems (empty when mypy reported exactly what the case expects)."""
    problems: list[str] = []
    left = list(reported)
    for exp in case.expected:
        match = next(
            (
                r
                for r in left
                if r.line == exp.line
                and r.code == exp.code
                and all(f in r.message for f in exp.fragments)
            ),
            None,
        )
        if match is None:
            near = [r for r in left if r.line == exp.line]
            hint = f" (reported there: {near})" if near else ""
            problems.append(f"missing: line {exp.line} [{exp.code}] {list(exp.fragments)}{hint}")
        else:
            left.remove(match)
    for r in left:
        problems.append(f"unexpected: line {r.line} [{r.code}] {r.message}")
    return problems


@dataclass
class MypyRun:
    stdout: str
    stderr: str
    status: int
    by_file: dict[str, list[Reported]]

    def errors_for(self, case: Case) -> list[Reported]:
        return self.by_file.get(str(case.path.resolve()), [])


def case_params(cases: list[Case] | None = None) -> list[Any]:
    """pytest parameters, one per case; known gaps are strict xfails."""
    out = []
    import mypy.version

    running = tuple(int(x) for x in re.findall(r"\d+", mypy.version.__version__)[:3])
    for case in all_cases() if cases is None else cases:
        marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
        if case.needs_mypy is not None and running < case.needs_mypy[0]:
            wanted = ".".join(map(str, case.needs_mypy[0]))
            marks = [pytest.mark.skip(reason=f"needs mypy >= {wanted}: {case.needs_mypy[1]}")]
        out.append(pytest.param(case, id=case.name, marks=marks))
    return out
