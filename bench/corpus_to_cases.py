"""Turn a scored blind corpus into case files for tests/typesafety/cases.

Once a corpus (see bench/blind_corpus_brief.md) has been scored, its programs join the
checker's corpus so that what they found stays found:

    python -m bench.corpus_to_cases CORPUS PREFIX [--dest tests/typesafety/cases]

``NAME_ok.py`` becomes ``PREFIX_NAME_ok.py`` with ``# RUN: ok``. ``NAME_bug.py`` becomes
``PREFIX_NAME_hazard.py``: its ``# RUN:`` header says how it fails under the simulator
(the exception and whether it is raised on the planted line or inside a call from it, or
the ResourceWarning); each error the plugin reports becomes a ``# E:`` mark on its line;
the ``# PLANTED:`` comment becomes a ``# Planted bug:`` header and, where the plugin
missed it, a ``# E:`` mark for the code the runtime's failure stands for and a strict
``# XFAIL: miss`` header naming the line (and the lines reported instead), so that the
day the checker finds it the case says so.

The cases are the checker's record, not its verdict: look over the printed table (an ok
file with a report is a false report to fix in the checker, not to mark) before
committing them.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from bench.checker_recall import (
    ROOT,
    Error,
    failure_lines,
    plugin_errors,
    run_under_simulator,
    verdict,
)

_PLANTED = re.compile(r"\s*#\s*PLANTED:?\s*(?P<desc>.*)$")


def _code_for(result: dict[str, Any]) -> str:
    """The plugin's code for the failure the runtime shows."""
    exc, message = result["exception"], str(result.get("message", ""))
    if exc is None or exc == "UnfinishedTransferError":
        return "unfinished-transfer"
    if exc == "UseAfterTransferError" and "already completed" in message:
        return "transfer-completed-twice"
    if exc == "BorrowError":
        return "lend-escape" if "block" in message else "owner-borrowed"
    return "use-after-transfer"


def _hazard_case(
    path: Path, result: dict[str, Any], errors: list[Error]
) -> tuple[str, str, list[int]]:
    """(case text, verdict, lines of the case file the runtime raised on)."""
    lines = path.read_text().splitlines()
    planted: dict[int, str] = {}
    for i, text in enumerate(lines, 1):
        m = _PLANTED.search(text)
        if m:
            planted[i] = m["desc"].strip()
            lines[i - 1] = text[: m.start()].rstrip()
    if not planted:
        sys.exit(f"{path}: no # PLANTED line")
    frames = failure_lines(path, result)
    if result["exception"] is not None:
        if not frames:
            sys.exit(f"{path}: raised {result['exception']} outside the file")
        # Plain where mypy flags the line it is raised on, else inside a call from one.
        via = "" if frames[-1] in {e[1] for e in errors} else " via-call"
        run = f"raises {result['exception']}{via}"
    elif result["warnings"]:
        run = "warns ResourceWarning anywhere"
    else:
        sys.exit(f"{path}: runs clean under the simulator: the planted bug measures nothing")

    reported = sorted({e[1] for e in errors})
    found = verdict(set(planted), errors, result, path)
    # What test_agreement.py will check of the case: the run fails where mypy flags.
    if run.startswith("raises"):
        on_path = set(failure_lines(path, result, context=True))
        agrees = bool(set(reported) & on_path) if "via-call" in run else frames[-1] in reported
    else:
        agrees = bool(reported)
    hit = found == "HIT" or (found == "PATH" and agrees)
    if hit and not agrees:
        print(f"  note: {path.name}: found, but test_agreement will not see it: fix by hand")
    marks: dict[int, list[str]] = {}
    for _, ln, code, _msg in errors:
        marks.setdefault(ln, []).append(code)
    desc = "; ".join(planted.values())
    shift = 2 if hit else 3  # the header lines put above the program
    header = [f"# RUN: {run}"]
    if not hit:
        marks.setdefault(min(planted), []).append(_code_for(result))
        elsewhere = ", ".join(str(r + shift) for r in reported)
        instead = f" (reported elsewhere: lines {elsewhere})" if reported else ""
        header.append(f"# XFAIL: miss (line {min(planted) + shift}){instead}: {desc}")
    header.append(f"# Planted bug: {desc}")
    for ln, codes in marks.items():
        lines[ln - 1] = lines[ln - 1] + "  " + " ".join(f"# E: {c}" for c in codes)
    return "\n".join(header + lines) + "\n", found, [f + shift for f in frames]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("prefix")
    parser.add_argument("--dest", type=Path, default=ROOT / "tests" / "typesafety" / "cases")
    args = parser.parse_args(argv)
    oks = sorted(args.corpus.glob("*_ok.py"))
    bugs = sorted(args.corpus.glob("*_bug.py"))
    if not oks and not bugs:
        sys.exit(f"{args.corpus}: no *_ok.py or *_bug.py files")
    errors = plugin_errors(oks + bugs)
    results = run_under_simulator(bugs)
    for path in oks:
        name = path.name.removesuffix("_ok.py")
        text = "# RUN: ok\n" + path.read_text()
        (args.dest / f"{args.prefix}_{name}_ok.py").write_text(text)
        fp = errors.get(path.name, [])
        print(
            f"{'FP' if fp else 'ok':5} {name}_ok"
            + "".join(f"\n        {ln}: [{code}] {msg[:120]}" for _, ln, code, msg in fp)
        )
    for path in bugs:
        name = path.name.removesuffix("_bug.py")
        errs = errors.get(path.name, [])
        text, verdict, frames = _hazard_case(path, results[str(path.resolve())], errs)
        (args.dest / f"{args.prefix}_{name}_hazard.py").write_text(text)
        print(f"{verdict:5} {name}_hazard  raised on {frames or '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
