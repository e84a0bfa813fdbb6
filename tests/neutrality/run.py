"""Installing numbaxfer must not change mypy's verdict on code that does not use it.

    python tests/neutrality/run.py [--venv .venv-neutral]

In a venv of its own (numbaxfer's dependencies and mypy, not numbaxfer), this script:

1. builds numbaxfer's wheel and checks that every file it installs is numbaxfer's own
   (``numbaxfer/``, its ``.dist-info``, ``share/numbaxfer/``): nothing that another PyPI
   distribution could also install, such as ``numba-stubs/`` or ``cuda-stubs/``;
2. runs mypy over ``corpus/`` (ordinary numba, numba.cuda, cuda.core and cuda.bindings
   code, with ``reveal_type`` on the names the issue listed) under three configurations,
   without numbaxfer, then with the wheel installed, then with the wheel installed and
   ``plugins = numbaxfer.mypy_plugin``, and requires identical output each time;
3. checks that a project whose configuration names only the plugin gets the seed bug
   (``examples/bugs/seed_bug.py``) reported;
4. prints what opting in to numbaxfer's numba.cuda stubs (``mypy_path``) changes on the
   corpus (types get precise, baseline errors about numba's bundled legacy numba.cuda
   go), and requires that opting in reports no error on a line that had none;
5. installs the checkout editable (``pip install -e``, as ``make test`` does) and runs
   mypy --strict from a directory outside the checkout on a user's program with a
   ``cuda.jit`` kernel and the seed bug, with the plugin and ``mypy_path`` set as
   docs/install.md says (the venv's ``share/numbaxfer/stubs``, then the checkout's
   ``stubs/``): mypy must find numbaxfer (the editable install must be a path entry, not
   an import hook only the interpreter sees), report the use after the transfer, and
   nothing else (no ``untyped-decorator`` from numba's own sources).

numbaxfer is uninstalled again at the end, so the venv stays a baseline for the next run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"
CONFIGS = {
    "default": "",
    "strict": "strict = True\n",
    "lenient": "ignore_missing_imports = True\ncheck_untyped_defs = True\n",
}
OWN = re.compile(
    r"^(numbaxfer/|numbaxfer-[^/]+\.dist-info/|numbaxfer-[^/]+\.data/data/share/numbaxfer/)"
)


def sh(*cmd: str | Path, cwd: Path | None = None) -> str:
    proc = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        shown = " ".join(map(str, cmd))
        sys.exit(f"failed ({proc.returncode}): {shown}\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def mypy(py: Path, work: Path, name: str, body: str, tag: str) -> list[str]:
    """mypy's output on the corpus copy in ``work``, lines sorted, with a fresh cache."""
    ini = work / f"{tag}-{name}.ini"
    ini.write_text("[mypy]\n" + body)
    cache = work / ".cache" / f"{tag}-{name}"
    proc = subprocess.run(
        [
            str(py),
            "-m",
            "mypy",
            "--config-file",
            str(ini),
            "--cache-dir",
            str(cache),
            "--no-error-summary",
            "--hide-error-context",
            ".",
        ],
        cwd=work / "corpus",
        capture_output=True,
        text=True,
        check=False,
        env={k: v for k, v in os.environ.items() if k != "MYPYPATH"},
    )
    if proc.returncode not in (0, 1) or proc.stderr.strip():
        sys.exit(f"mypy crashed ({tag}, {name}):\n{proc.stdout}{proc.stderr}")
    return sorted(proc.stdout.splitlines())


# Step 5's program: a user's module beside no numbaxfer checkout. Under --strict with the
# stubs, the kernel is typed (numba's own sources would give untyped-decorator) and the
# seed bug is the one error.
USER_PROGRAM = '''\
"""A user's program: a kernel, and the seed bug."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def scale(a: Any, f: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= f


def main(n: int = 1024) -> float:
    s = nx.stream()
    host = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    up = s.upload(host, to=dev)
    with host.write() as a:  # the seed bug: the copy may still be reading host
        a[-1] = 2.0
    host = up.wait()
    return float(host.read()[-1])
'''
USER_MOVE_LINE = USER_PROGRAM.splitlines().index("    up = s.upload(host, to=dev)") + 1


def check_editable(py: Path, work: Path) -> int:
    """Step 5: the checkout installed editable, mypy run from outside it. Failures."""
    failures = 0
    sh(py, "-m", "pip", "install", "-q", "--no-deps", "-e", ROOT)
    outside = work / "user-project"
    outside.mkdir()
    (outside / "user_program.py").write_text(USER_PROGRAM)
    # What a user's shell has: no PYTHONPATH or MYPYPATH naming the checkout.
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONPATH")}
    probe = subprocess.run(
        [
            str(py),
            "-c",
            "import numbaxfer, sysconfig; print(numbaxfer.__file__);"
            " print(sysconfig.get_path('data'))",
        ],
        cwd=outside,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = probe.stdout.splitlines()
    if (
        probe.returncode != 0
        or len(lines) != 2
        or Path(lines[0]) != ROOT / "numbaxfer" / "__init__.py"
    ):
        print("FAIL: the editable install does not import the checkout:")
        print(probe.stdout + probe.stderr)
        return 1
    share = Path(lines[1]) / "share" / "numbaxfer" / "stubs"
    expected = (
        f'user_program.py:{USER_MOVE_LINE + 1}: error: "host" is used after it was moved into'
        f" Stream.upload() at line {USER_MOVE_LINE}"
    )
    for k, (where, stubs) in enumerate(
        (("venv share/", share), ("checkout stubs/", ROOT / "stubs"))
    ):
        ini = outside / "mypy.ini"
        ini.write_text(
            f"[mypy]\nstrict = True\nplugins = numbaxfer.mypy_plugin\nmypy_path = {stubs}\n"
        )
        proc = subprocess.run(
            [
                str(py),
                "-m",
                "mypy",
                "--cache-dir",
                str(work / ".cache" / f"editable-{k}"),
                "--no-error-summary",
                "--hide-error-context",
                "user_program.py",
            ],
            cwd=outside,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        out = proc.stdout.splitlines()
        ok = (
            proc.returncode == 1
            and not proc.stderr.strip()
            and len(out) == 1
            and out[0].startswith(expected)
            and out[0].endswith("[use-after-transfer]")
        )
        shown = out[0] if ok else "WRONG"
        print(f"editable install, mypy --strict outside the checkout, stubs from {where}: {shown}")
        if not ok:
            failures += 1
            print(f"    expected only: {expected}... [use-after-transfer]")
            print("\n".join(f"    {x}" for x in (proc.stdout + proc.stderr).splitlines()))
    return failures


def diff(a: list[str], b: list[str]) -> list[str]:
    sa, sb = set(a), set(b)
    return [f"- {x}" for x in a if x not in sb] + [f"+ {x}" for x in b if x not in sa]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--venv", type=Path, default=ROOT / ".venv-neutral")
    args = ap.parse_args()
    t0 = time.monotonic()
    venv: Path = args.venv.resolve()
    py = venv / "bin" / "python"
    work = Path(tempfile.mkdtemp(prefix="numbaxfer-neutrality-"))
    try:
        wheel_dir = work / "wheel"
        if not (venv / ".installed").exists():
            sh(sys.executable, "-m", "venv", venv)
            sh(py, "-m", "pip", "install", "-q", "--upgrade", "pip")
        sh(py, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheel_dir, ROOT)
        (wheel,) = wheel_dir.glob("numbaxfer-*.whl")
        if not (venv / ".installed").exists():
            # numbaxfer's own dependencies (as its wheel asks for them) and mypy.
            sh(py, "-m", "pip", "install", "-q", wheel, "mypy>=1.16")
            (venv / ".installed").touch()
        sh(py, "-m", "pip", "uninstall", "-q", "-y", "numbaxfer")

        # 1. Nothing installed outside numbaxfer's own names.
        names = zipfile.ZipFile(wheel).namelist()
        foreign = [n for n in names if not OWN.match(n)]
        print(f"wheel {wheel.name}: {len(names)} files, all under numbaxfer's own names")
        if foreign:
            print("FAIL: the wheel installs files another distribution could own:")
            print("\n".join(f"  {n}" for n in foreign))
            return 1

        shutil.copytree(CORPUS, work / "corpus")
        failures = 0
        base = {n: mypy(py, work, n, body, "base") for n, body in CONFIGS.items()}
        sh(py, "-m", "pip", "install", "-q", "--no-deps", wheel)
        try:
            # 2. Identical output with numbaxfer installed, and with its plugin on.
            for tag, extra in (("installed", ""), ("plugin", "plugins = numbaxfer.mypy_plugin\n")):
                for n, body in CONFIGS.items():
                    out = mypy(py, work, n, extra + body, tag)
                    d = diff(base[n], out)
                    status = "identical" if not d else f"DIFFERENT ({len(d)} lines)"
                    print(f"corpus, {n:8} config, numbaxfer {tag:9}: {len(out):3} lines, {status}")
                    if d:
                        failures += 1
                        print("\n".join(f"    {x}" for x in d))

            # 3. The plugin alone (no mypy_path, no stubs) reports the seed bug.
            seed = work / "seed"
            seed.mkdir()
            shutil.copy(ROOT / "examples" / "bugs" / "seed_bug.py", seed)
            (seed / "mypy.ini").write_text("[mypy]\nplugins = numbaxfer.mypy_plugin\n")
            proc = subprocess.run(
                [
                    str(py),
                    "-m",
                    "mypy",
                    "--cache-dir",
                    str(work / ".cache" / "seed"),
                    "seed_bug.py",
                ],
                cwd=seed,
                capture_output=True,
                text=True,
                check=False,
            )
            hit = [ln for ln in proc.stdout.splitlines() if "[use-after-transfer]" in ln]
            print(f"seed bug, plugin-only project config: {hit[0] if hit else 'NOT REPORTED'}")
            if not hit or not hit[0].startswith("seed_bug.py:22:"):
                failures += 1
                print(proc.stdout + proc.stderr)

            # 4. What opting in to the stubs changes (information; no baseline error lost
            #    except attr-defined of names the stubs now give a type or Any).
            data = Path(sh(py, "-c", "import sysconfig; print(sysconfig.get_path('data'))").strip())
            stubs = data / "share" / "numbaxfer" / "stubs"
            if not (stubs / "numba" / "cuda" / "__init__.pyi").is_file():
                failures += 1
                print(f"FAIL: the opt-in stubs are not installed at {stubs}")
            else:
                out = mypy(py, work, "default", f"mypy_path = {stubs}\n", "optin")
                d = diff(base["default"], out)
                base_err = {x.split(": error: ")[0] for x in base["default"] if ": error: " in x}
                new_err = [
                    x for x in out if ": error: " in x and x.split(": error: ")[0] not in base_err
                ]
                print(
                    f"opt-in stubs (mypy_path = {stubs}), default config: {len(d)} lines"
                    " change (types of what the stubs describe); the errors among them:"
                )
                for x in d:
                    if ": error: " in x:
                        print(f"    {x[:160]}")
                if new_err:
                    failures += 1
                    print("FAIL: opting in reports errors on lines that had none:")
                    print("\n".join(new_err))

            # 5. The editable install, seen by mypy from outside the checkout.
            sh(py, "-m", "pip", "uninstall", "-q", "-y", "numbaxfer")
            t5 = time.monotonic()
            failures += check_editable(py, work)
            print(f"editable install check: {time.monotonic() - t5:.0f} s")
        finally:
            sh(py, "-m", "pip", "uninstall", "-q", "-y", "numbaxfer")
        print(
            f"neutrality: {'OK' if not failures else f'{failures} FAILED'} "
            f"({time.monotonic() - t0:.0f} s)"
        )
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
