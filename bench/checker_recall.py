"""Score the static checker on a corpus of programs it has not seen.

A corpus is a folder of pairs: ``NAME_ok.py`` (a correct program) and ``NAME_bug.py`` (the
same program with one planted ownership hazard, its line marked with a ``# PLANTED``
comment). The checker is mypy with ``numbaxfer.mypy_plugin``; an error counts as the
plugin's when plain mypy (same flags, no plugin) does not report it at the same line with
the same code.

For each bug file the verdict is HIT (a plugin error on a planted line), NEAR (a plugin
error elsewhere in the file) or MISS; each plugin error in an ok file is a false report.

    python bench/checker_recall.py CORPUS [CORPUS ...] [--runtime]

``--runtime`` also runs every file under numba's simulator and checks that ok files run
clean and bug files fail (an exception or a ResourceWarning): a corpus whose planted bug
does not fail at run time measures nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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


def _mypy(files: list[Path], plugin: bool) -> list[Error]:
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


def _planted(path: Path) -> set[int]:
    lines = path.read_text().splitlines()
    return {i for i, text in enumerate(lines, 1) if "# PLANTED" in text}


def _runtime_fails(path: Path) -> tuple[bool, str]:
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONWARNINGS="error::ResourceWarning")
    proc = subprocess.run(
        [sys.executable, "-X", "dev", str(path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=path.parent,
        check=False,
        timeout=600,
    )
    tail = (proc.stderr.strip().splitlines() or [""])[-1]
    failed = proc.returncode != 0 or "ResourceWarning" in proc.stderr
    return failed, tail


def score(corpus: Path, runtime: bool) -> tuple[int, int, int, int]:
    """Print one line per pair and return (hits, nears, bugs, false_reports)."""
    files = sorted(corpus.glob("*_ok.py")) + sorted(corpus.glob("*_bug.py"))
    if not files:
        sys.exit(f"{corpus}: no *_ok.py or *_bug.py files")
    plain = {(f, line, code) for f, line, code, _ in _mypy(files, plugin=False)}
    plugin_errors = [e for e in _mypy(files, plugin=True) if (e[0], e[1], e[2]) not in plain]
    by_file: dict[str, list[Error]] = {}
    for e in plugin_errors:
        by_file.setdefault(e[0], []).append(e)
    hits = nears = bugs = false_reports = 0
    for path in files:
        errs = by_file.get(path.name, [])
        note = ""
        if runtime:
            failed, tail = _runtime_fails(path)
            expected = path.name.endswith("_bug.py")
            if failed != expected:
                note = f"  [runtime: {'fails' if failed else 'runs clean'}: {tail}]"
        if path.name.endswith("_ok.py"):
            false_reports += len(errs)
            verdict = "FP" if errs else "ok"
        else:
            bugs += 1
            planted = _planted(path)
            if not planted:
                note += "  [no # PLANTED line]"
            if any(e[1] in planted for e in errs):
                hits += 1
                verdict = "HIT"
            elif errs:
                nears += 1
                verdict = "NEAR"
            else:
                verdict = "MISS"
            if verdict != "HIT":
                note += f"  planted at {sorted(planted)}"
        print(f"{verdict:5} {path.name}{note}")
        for _, line, code, msg in errs if verdict in ("FP", "NEAR") else ():
            print(f"        {line}: [{code}] {msg[:150]}")
    return hits, nears, bugs, false_reports


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="+", type=Path)
    parser.add_argument(
        "--runtime", action="store_true", help="also run each file under the simulator"
    )
    args = parser.parse_args(None if argv is None else list(argv))
    total = [0, 0, 0, 0]
    for corpus in args.corpora:
        hits, nears, bugs, fps = score(corpus, args.runtime)
        print(f"{corpus}: {hits}/{bugs} HIT, {nears} NEAR, {fps} false reports\n")
        total = [a + b for a, b in zip(total, (hits, nears, bugs, fps), strict=True)]
    if len(args.corpora) > 1:
        print(f"all: {total[0]}/{total[2]} HIT, {total[1]} NEAR, {total[3]} false reports")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
