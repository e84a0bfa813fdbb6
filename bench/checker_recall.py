"""Score the static checker on a corpus of programs it has not seen.

A corpus is a folder of pairs: ``NAME_ok.py`` (a correct program) and ``NAME_bug.py`` (the
same program with one planted ownership hazard, its line marked with a ``# PLANTED``
comment). The checker is mypy with ``numbaxfer.mypy_plugin``; an error counts as the
plugin's when plain mypy (same flags, no plugin) does not report it at the same line with
the same code.

For each bug file the verdict is HIT (a plugin error on a planted line), PATH (with
``--runtime``: an error on the failing path the simulator shows, such as the call into
the method whose read raises), NEAR (a plugin error elsewhere in the file) or MISS; each
plugin error in an ok file is a false report.

    python bench/checker_recall.py CORPUS [CORPUS ...] [--runtime]

``--runtime`` also runs every file under numba's simulator and checks that ok files run
clean and bug files fail (an exception or a ResourceWarning): a corpus whose planted bug
does not fail at run time measures nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_RUNNER = ROOT / "tests" / "typesafety" / "runtime_runner.py"
_LINE = re.compile(
    r"^(?P<file>[^:]+\.py):(?P<line>\d+): error: (?P<msg>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)

_CONFIG = """\
[mypy]
{plugins}
mypy_path = {stubs}
python_version = 3.11
strict = True
warn_unreachable = False
show_error_codes = True
show_column_numbers = False
incremental = False

[mypy-numbaxfer.*]
ignore_errors = True

[mypy-numba.*]
ignore_missing_imports = True
ignore_errors = True
"""

Error = tuple[str, int, str, str]  # file name, line, code, message


def mypy_errors(files: list[Path], plugin: bool) -> list[Error]:
    with tempfile.TemporaryDirectory() as tmp:
        ini = Path(tmp) / "mypy.ini"
        ini.write_text(
            _CONFIG.format(
                plugins="plugins = numbaxfer.mypy_plugin" if plugin else "",
                stubs=ROOT / "stubs",
            )
        )
        proc = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(ini), *map(str, files)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
    errors: list[Error] = []
    for raw in proc.stdout.splitlines():
        m = _LINE.match(raw)
        if m:
            errors.append((Path(m["file"]).name, int(m["line"]), m["code"] or "", m["msg"]))
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not errors):
        sys.exit(f"mypy failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return errors


def plugin_errors(files: list[Path]) -> dict[str, list[Error]]:
    """The errors of mypy with the plugin that plain mypy does not report, by file name."""
    plain = {(f, line, code) for f, line, code, _ in mypy_errors(files, plugin=False)}
    by_file: dict[str, list[Error]] = {}
    for e in mypy_errors(files, plugin=True):
        if (e[0], e[1], e[2]) not in plain:
            by_file.setdefault(e[0], []).append(e)
    return by_file


def planted_lines(path: Path) -> set[int]:
    lines = path.read_text().splitlines()
    return {i for i, text in enumerate(lines, 1) if "# PLANTED" in text}


def run_under_simulator(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """How each file ends under numba's simulator, by resolved path: the exception (its
    type, message and traceback frames) and the ResourceWarnings, from
    tests/typesafety/runtime_runner.py (numba imported once for all files)."""
    proc = subprocess.run(
        [sys.executable, str(_RUNNER), *map(str, paths)],
        capture_output=True,
        text=True,
        env=dict(os.environ, NUMBA_ENABLE_CUDASIM="1"),
        cwd=ROOT,
        check=False,
        timeout=3600,
    )
    if proc.returncode != 0:
        sys.exit(f"runtime_runner failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return {str(Path(r["path"]).resolve()): r for r in json.loads(proc.stdout)}


def failure_lines(path: Path, result: dict[str, Any], *, context: bool = False) -> list[int]:
    """The lines of ``path`` on the traceback of the exception it raised (outermost
    first); ``context``: also of the exceptions it was raised while handling."""
    me = str(path.resolve())
    frames = result["frames"] + (result.get("context_frames", []) if context else [])
    return [int(line) for f, line in frames if str(Path(f).resolve()) == me]


def verdict(
    planted: set[int], errors: list[Error], result: dict[str, Any] | None, path: Path
) -> str:
    """HIT: a plugin error on a planted line. PATH: on the failing path the simulator
    shows instead (a line of the raise's traceback, or of the first failure's where a
    cleanup failed after it, such as the call into the method that raises; or, for a
    transfer dropped, ResourceWarning, an unfinished-transfer report),
    what a user is told there is the hazard. NEAR: an error elsewhere. MISS: none."""
    reported = {e[1] for e in errors}
    if reported & planted:
        return "HIT"
    if result is not None:
        on_path = set(failure_lines(path, result, context=True))
        if result["exception"] is not None and reported & on_path:
            return "PATH"
        if result["warnings"] and any(e[2] == "unfinished-transfer" for e in errors):
            return "PATH"
    return "NEAR" if errors else "MISS"


def score(corpus: Path, runtime: bool) -> dict[str, int]:
    """Print one line per file and return the counts of each verdict, of bug files
    ("bugs") and of errors in correct programs ("false reports")."""
    files = sorted(corpus.glob("*_ok.py")) + sorted(corpus.glob("*_bug.py"))
    if not files:
        sys.exit(f"{corpus}: no *_ok.py or *_bug.py files")
    by_file = plugin_errors(files)
    results = run_under_simulator(files) if runtime else {}
    counts = dict.fromkeys(("HIT", "PATH", "NEAR", "MISS", "bugs", "false reports"), 0)
    for path in files:
        errs = by_file.get(path.name, [])
        result = results.get(str(path.resolve()))
        note = ""
        if result is not None:
            failed = result["exception"] is not None or bool(result["warnings"])
            if failed != path.name.endswith("_bug.py"):
                what = result["exception"] or ("ResourceWarning" if failed else "")
                note = f"  [runtime: {'fails' if failed else 'runs clean'} {what}]"
        if path.name.endswith("_ok.py"):
            counts["false reports"] += len(errs)
            v = "FP" if errs else "ok"
        else:
            counts["bugs"] += 1
            planted = planted_lines(path)
            if not planted:
                note += "  [no # PLANTED line]"
            v = verdict(planted, errs, result, path)
            counts[v] += 1
            if v != "HIT":
                note += f"  planted at {sorted(planted)}"
        print(f"{v:5} {path.name}{note}")
        for _, line, code, msg in errs if v in ("FP", "NEAR", "PATH") else ():
            print(f"        {line}: [{code}] {msg[:150]}")
    return counts


def _summary(counts: dict[str, int]) -> str:
    return (
        f"{counts['HIT']}/{counts['bugs']} HIT, {counts['PATH']} on the failing path, "
        f"{counts['NEAR']} NEAR, {counts['false reports']} false reports"
    )


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="+", type=Path)
    parser.add_argument(
        "--runtime", action="store_true", help="also run each file under the simulator"
    )
    args = parser.parse_args(None if argv is None else list(argv))
    total: dict[str, int] = {}
    for corpus in args.corpora:
        counts = score(corpus, args.runtime)
        print(f"{corpus}: {_summary(counts)}\n")
        total = {k: total.get(k, 0) + v for k, v in counts.items()}
    if len(args.corpora) > 1:
        print(f"all: {_summary(total)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
