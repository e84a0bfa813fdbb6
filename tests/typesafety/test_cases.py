"""mypy with numbaxfer.mypy_plugin over the case files: exactly the expected errors.

Also: warm cache runs and a dmypy edit sequence agree with the cold run, mypy < 1.16 is
refused, a failure inside the plugin degrades to no check, and the catch-all signature
hooks leave other plugins' (and mypy's default plugin's) hooks working.

Run ``python -m tests.typesafety.test_cases [case ...]`` for a readable report.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mypy.options import Options

from .support import (
    CASES_DIR,
    CONFIG,
    ROOT,
    Case,
    MypyRun,
    all_cases,
    case_params,
    compare,
    config_variant,
    mypy_args,
    parse_output,
    run_mypy,
)

pytest.importorskip("mypy", reason="the static checker tests need mypy")


# Case files are named by rule: positive cases <prefix>_*, negative ones ok_<neg>*.
_RULES = {
    "use-after-transfer": ("uat_", "ok_"),
    "unfinished-transfer": ("unf_", "ok_unf_"),
    "transfer-completed-twice": ("twice_", "ok_twice_"),
    "lend-escape": ("lend_", "ok_lend_"),
}


def test_enough_cases() -> None:
    cases = all_cases()
    assert len(cases) >= 60
    for code, (positive, negative) in _RULES.items():
        pos = [c for c in cases if c.name.startswith(positive) and not c.xfail]
        neg = [c for c in cases if c.name.startswith(negative) and not c.xfail]
        assert len(pos) >= 4 and all(any(e.code == code for e in c.expected) for c in pos)
        assert len(neg) >= 2 and all(all(e.code != code for e in c.expected) for c in neg)
    # every frontier case of docs/static-checker.md is a case: caught or a strict xfail
    assert sum(1 for c in cases if c.name.startswith("frontier_")) >= 8


def test_no_errors_outside_cases(mypy_cold: MypyRun) -> None:
    case_files = {str(p.resolve()) for p in CASES_DIR.glob("*.py")}
    stray = {f: e for f, e in mypy_cold.by_file.items() if f not in case_files}
    assert not stray, stray
    assert "INTERNAL ERROR" not in mypy_cold.stdout + mypy_cold.stderr
    assert "Traceback" not in mypy_cold.stderr, mypy_cold.stderr
    assert mypy_cold.status in (0, 1), mypy_cold.stdout + mypy_cold.stderr


@pytest.mark.parametrize("case", case_params())
def test_case(case: Case, mypy_cold: MypyRun) -> None:
    problems = compare(case, mypy_cold.errors_for(case))
    assert not problems, f"{case.rel}:\n  " + "\n  ".join(problems)


def test_warm_cache_agrees(mypy_cold: MypyRun, case_cache_dir: Path) -> None:
    """A second run on the cold run's cache (everything fresh) reports the same."""
    stdout, _stderr, status = run_mypy(mypy_args(case_cache_dir, str(CASES_DIR)))
    assert status == mypy_cold.status
    assert sorted(stdout.splitlines()) == sorted(mypy_cold.stdout.splitlines())


def test_warm_cache_after_edit(tmp_path: Path, warm_cache: Path) -> None:
    """Edit a module that defines a consuming function: its user is re-checked right,
    and cold and warm runs agree at every step."""
    lib = tmp_path / "userlib.py"
    app = tmp_path / "app.py"
    lib.write_text(_LIB.format(param="nx.Consumed[Host]"))
    app.write_text(_APP)
    pristine = tmp_path / "pristine"
    shutil.copytree(warm_cache, pristine)
    config = config_variant(tmp_path, "edit.ini", skip_numpy=True)

    def check(cache: Path) -> list[str]:
        args = mypy_args(cache, str(app), str(lib))
        args[1] = str(config)
        stdout, _, _ = run_mypy(args)
        return sorted(line for line in stdout.splitlines() if "error:" in line)

    def cold() -> list[str]:
        fresh = tmp_path / "fresh"
        shutil.rmtree(fresh, ignore_errors=True)
        shutil.copytree(pristine, fresh)  # warm for typeshed, cold for app and userlib
        return check(fresh)

    first = check(warm_cache)
    assert len(first) == 1 and "use-after-transfer" in first[0], first
    assert check(warm_cache) == first  # warm, nothing changed
    lib.write_text(_LIB.format(param="Host"))  # no longer consumes
    assert check(warm_cache) == [] == cold()
    lib.write_text(_LIB.format(param="nx.Consumed[Host]"))
    assert check(warm_cache) == first == cold()


_LIB = textwrap.dedent(
    """\
    import numpy as np
    import numbaxfer as nx

    Host = nx.PinnedArray[nx.Owned, np.float32]
    kept: list[Host] = []


    def keep(buf: {param}) -> None:
        kept.append(buf)
    """
)
_APP = textwrap.dedent(
    """\
    import numpy as np
    import numbaxfer as nx
    from userlib import keep

    host = nx.pinned_array(8, np.float32)
    keep(host)
    host.read()
    # calls of functions mypy loads from its cache (no arguments, no body there)
    names = sorted(["b", "a"])
    count = len(names)
    """
)


def test_dmypy_edit_sequence(tmp_path: Path) -> None:
    """dmypy (fine-grained incremental) reports the right errors, edit by edit."""
    dmypy = shutil.which("dmypy", path=str(Path(sys.executable).parent))
    if dmypy is None:
        pytest.skip("dmypy is not installed next to this interpreter")
    work = tmp_path / "proj"
    work.mkdir()
    lib = work / "userlib.py"
    lib.write_text(_LIB.format(param="nx.Consumed[Host]"))
    app = work / "app.py"
    env = {
        "PYTHONPATH": str(ROOT),
        "PATH": str(Path(sys.executable).parent),
        "MYPYPATH": str(ROOT),
        "HOME": str(tmp_path),
        "NUMBAXFER_MYPY_PLUGIN_DEBUG": "1",
    }
    base = [dmypy, "--status-file", str(tmp_path / "dmypy.json")]
    flags = [
        "--config-file",
        str(CONFIG),
        "--cache-dir",
        str(tmp_path / "dcache"),
        "--no-error-summary",
        "--hide-error-context",
    ]

    def daemon() -> list[tuple[int, str]]:
        r = subprocess.run(
            [*base, "run", "--", *flags, "app.py", "userlib.py"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert "INTERNAL ERROR" not in r.stdout + r.stderr, r.stdout + r.stderr
        return sorted(
            (int(line.split(":")[1]), line.rsplit("[", 1)[-1].rstrip("]"))
            for line in r.stdout.splitlines()
            if line.startswith("app.py:") and "error:" in line
        )

    upload = "s = nx.stream()\nup = s.upload(host, to=nx.device_array(8, np.float32))\n"
    uat, unf, twice = "use-after-transfer", "unfinished-transfer", "transfer-completed-twice"
    # (app.py, userlib.py or None when unchanged, the errors expected in app.py)
    edits: list[tuple[str, str | None, list[tuple[int, str]]]] = [
        (_APP, None, [(7, uat)]),
        (_APP + "host = nx.pinned_array(8, np.float32)\nhost.read()\n", None, [(7, uat)]),
        (_APP, _LIB.format(param="Host"), []),
        (_APP, _LIB.format(param="nx.Consumed[Host]"), [(7, uat)]),
        (_APP.replace("keep(host)\n", upload), None, [(7, unf), (8, uat)]),
        (_APP.replace("keep(host)\n", upload + "host = up.wait()\n"), None, []),
        (
            _APP.replace("keep(host)\n", upload + "host = up.wait()\nhost = up.wait()\n"),
            None,
            [(9, twice)],
        ),
        (_APP, None, [(7, uat)]),
    ]
    try:
        for app_text, lib_text, expected in edits:
            app.write_text(app_text)
            if lib_text is not None:
                lib.write_text(lib_text)
            assert daemon() == expected, (app_text, lib_text)
    finally:
        subprocess.run([*base, "stop"], cwd=work, env=env, capture_output=True, timeout=60)


def test_old_mypy_refused() -> None:
    from numbaxfer import mypy_plugin

    with pytest.raises(SystemExit) as info:
        mypy_plugin.plugin("1.15.0")
    assert info.value.code == 2
    assert mypy_plugin.plugin("1.16.0") is mypy_plugin.NumbaxferPlugin
    assert mypy_plugin.plugin("1.16.1+dev.abc123") is mypy_plugin.NumbaxferPlugin
    assert mypy_plugin.plugin("2.4.1") is mypy_plugin.NumbaxferPlugin


def test_old_mypy_message(capsys: pytest.CaptureFixture[str]) -> None:
    from numbaxfer import mypy_plugin

    with pytest.raises(SystemExit):
        mypy_plugin.plugin("1.10.1")
    err = capsys.readouterr().err
    assert "mypy >= 1.16" in err and "1.10.1" in err


def test_internal_failure_degrades(tmp_path: Path, warm_cache: Path) -> None:
    """A bug in the plugin never aborts mypy: the call goes unchecked instead."""
    (tmp_path / "brokenplugin.py").write_text(_BROKEN_PLUGIN)
    config = config_variant(
        tmp_path, "broken.ini", plugins=str(tmp_path / "brokenplugin.py"), skip_numpy=True
    )
    src = tmp_path / "m.py"
    src.write_text(
        _APP.replace("from userlib import keep\n", "").replace("keep(host)\n", _UPLOAD)
        + "x: int = 'not an int'\n"
    )
    args = mypy_args(warm_cache, str(src))
    args[1] = str(config)
    stdout, stderr, status = run_mypy(args, debug=False)
    assert "INTERNAL ERROR" not in stdout + stderr and "Traceback" not in stderr, stderr
    assert status == 1
    errors = parse_output(stdout)[str(src.resolve())]
    assert [e.code for e in errors] == ["assignment"]  # mypy's own checks still run
    # and the same plugin file with the analysis intact does report
    fixed = _BROKEN_PLUGIN.replace("BREAK = True", "BREAK = False")
    (tmp_path / "brokenplugin.py").write_text(fixed)
    stdout, _, _ = run_mypy(args, debug=False)
    codes = sorted(e.code for e in parse_output(stdout)[str(src.resolve())])
    assert codes == ["assignment", "unfinished-transfer", "use-after-transfer"]


_UPLOAD = "s = nx.stream()\nup = s.upload(host, to=nx.device_array(8, np.float32))\n"
_BROKEN_PLUGIN = textwrap.dedent(
    """\
    from numbaxfer import mypy_plugin
    from numbaxfer._mypy import flow

    BREAK = True


    def _boom(self):
        raise RuntimeError("a bug in the analysis")


    if BREAK:
        flow.Analysis.run = _boom
    plugin = mypy_plugin.plugin
    """
)


def test_other_plugins_keep_their_hooks(tmp_path: Path, warm_cache: Path) -> None:
    """Signature hooks of plugins listed after ours, and of mypy's default plugin, apply."""
    (tmp_path / "otherplugin.py").write_text(_OTHER_PLUGIN)
    other = str(tmp_path / "otherplugin.py")
    src = tmp_path / "m.py"
    src.write_text(_OTHER_SOURCE)

    def check(plugins: str) -> list[tuple[int, str]]:
        config = config_variant(tmp_path, f"p{len(plugins)}.ini", plugins=plugins, skip_numpy=True)
        args = mypy_args(warm_cache, str(src))
        args[1] = str(config)
        stdout, _, _ = run_mypy(args)
        return sorted((e.line, e.code) for e in parse_output(stdout).get(str(src.resolve()), []))

    ours = check(f"numbaxfer.mypy_plugin, {other}")
    theirs = check(other)
    # numbaxfer's one report comes on top of exactly what the other plugins give ...
    assert ours == sorted([*theirs, (_line_of(_OTHER_SOURCE, "# ours"), "use-after-transfer")])
    # ... which includes the other plugin's hook (str accepted) ...
    assert (_line_of(_OTHER_SOURCE, "# theirs"), "arg-type") not in ours
    # ... and the default plugin's signature hook for dataclasses.replace
    assert (_line_of(_OTHER_SOURCE, "# default"), "arg-type") in ours


def _line_of(text: str, marker: str) -> int:
    return text.count("\n", 0, text.index(marker)) + 1


_OTHER_PLUGIN = textwrap.dedent(
    """\
    from mypy.plugin import Plugin


    class Other(Plugin):
        def get_function_signature_hook(self, fullname):
            if fullname == "m.takes_int":  # accept a str instead
                def hook(ctx):
                    str_type = ctx.api.named_generic_type("builtins.str", [])
                    return ctx.default_signature.copy_modified(arg_types=[str_type])
                return hook
            return None


    def plugin(version):
        return Other
    """
)
_OTHER_SOURCE = textwrap.dedent(
    """\
    from dataclasses import dataclass, replace
    from typing import TypedDict

    import numpy as np
    import numbaxfer as nx


    def takes_int(x: int) -> None: ...


    class Movie(TypedDict, total=False):
        name: str
        year: int


    @dataclass
    class Point:
        x: int


    takes_int("a string")  # theirs
    m: Movie = {}
    year: int = m.get("year", 0)
    p = replace(Point(1), x="not an int")  # default
    host = nx.pinned_array(8, np.float32)
    s = nx.stream()
    up = s.upload(host, to=nx.device_array(8, np.float32))
    host.read()  # ours
    host = up.wait()
    """
)


if __name__ == "__main__":  # a readable report: python -m tests.typesafety.test_cases [case ...]
    import tempfile

    wanted = set(sys.argv[1:])
    with tempfile.TemporaryDirectory() as tmp:
        out, err, _ = run_mypy(mypy_args(Path(tmp), str(CASES_DIR)))
    if "INTERNAL ERROR" in out + err or "Traceback" in err:
        print(out, err)
    by_file = parse_output(out)
    bad = 0
    for case in all_cases():
        if wanted and case.name not in wanted:
            continue
        problems = compare(case, by_file.get(str(case.path.resolve()), []))
        if problems or wanted:
            bad += bool(problems) and not case.xfail
            tag = "XFAIL " if case.xfail else ""
            print(f"{tag}{case.rel}: {'ok' if not problems else ''}")
            for p in problems:
                print("   ", p)
    print(f"{bad} failing")


def test_the_cache_key_covers_every_module_of_the_plugin(tmp_path: Path) -> None:
    """mypy's incremental cache sees edits to the entry module only; the plugin's
    ``report_config_data`` carries a digest of every module, so an edit to a rule (or the
    engine) invalidates the cache too."""
    from numbaxfer._mypy import plugin as plugin_module

    package = Path(plugin_module.__file__).resolve().parent
    copy = tmp_path / "numbaxfer"
    shutil.copytree(package, copy / "_mypy", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(package.parent / "mypy_plugin.py", copy / "mypy_plugin.py")
    base = plugin_module.source_digest(copy / "_mypy")
    assert base == plugin_module.source_digest()
    for module in ("rules/lend_escape.py", "flow.py", "names.py"):
        path = copy / "_mypy" / module
        original = path.read_text()
        path.write_text(original + "\n# an edit\n")
        assert plugin_module.source_digest(copy / "_mypy") != base, module
        path.write_text(original)
    data = plugin_module.NumbaxferPlugin(Options()).report_config_data(None)  # type: ignore[arg-type]
    assert isinstance(data, dict) and data["sources"] == base
