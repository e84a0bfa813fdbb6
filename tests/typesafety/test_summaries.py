"""How often the plugin builds a class summary (``numbaxfer/_mypy/classes.py``).

Every read of an attribute of a class with a summary asks for it. A summary built while
mypy has not inferred a type it needs (``self.buf`` before ``__init__`` is checked) is
a draft, rebuilt at a later query. So the reads of ``self.x`` inside ``__init__`` (where
nothing is moved at entry) do not ask, and a draft is rebuilt only once mypy has
inferred one of the types it lacked. The test counts the builds through a plugin shim
that wraps the builder, in a real mypy run.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

from .support import config_variant, mypy_args, run_mypy

_SHIM = textwrap.dedent(
    """\
    from numbaxfer._mypy import classes
    from numbaxfer.mypy_plugin import plugin

    _build = classes.Objects._summarise


    def _counted(self, info, fn, *args, **kwargs):
        with open({log!r}, "a") as log:
            log.write(f"{{info.name if info is not None else ''}}.{{fn.name}}\\n")
        return _build(self, info, fn, *args, **kwargs)


    classes.Objects._summarise = _counted
    """
)

_PROGRAM = textwrap.dedent(
    """\
    import numpy as np
    import numbaxfer as nx

    Dev = nx.DeviceArray[nx.Owned, np.float32]


    class Stager:
        def __init__(self, s: nx.Stream[nx.Owned], dev: Dev) -> None:
            self.s = s
            self.dev = dev
            self.buf = nx.pinned_array(8, np.float32)
            self.pending = None

        def start(self) -> None:
            self.pending = self.s.upload(self.buf, to=self.dev)

        def finish(self) -> None:
            if self.pending is not None:
                self.buf = self.pending.wait()
                self.pending = None

        def peek(self) -> float:
            return float(self.buf.read()[0])


    def use(st: Stager) -> float:
        st.start()
        return st.peek()
    """
)


def _builds(tmp_path: Path, warm_cache: Path, program: str = _PROGRAM) -> tuple[Counter[str], str]:
    log = tmp_path / "builds.log"
    shim = tmp_path / "counting_plugin.py"
    shim.write_text(_SHIM.format(log=str(log)))
    app = tmp_path / "stager_app.py"
    app.write_text(program)
    config = config_variant(tmp_path, "count.ini", plugins=str(shim), skip_numpy=True)
    args = mypy_args(warm_cache, str(app))
    args[1] = str(config)
    stdout, stderr, _ = run_mypy(args)
    assert "Traceback" not in stderr, stderr
    lines = log.read_text().splitlines() if log.exists() else []
    return Counter(lines), stdout


def test_a_class_summary_is_built_once(tmp_path: Path, warm_cache: Path) -> None:
    counts, stdout = _builds(tmp_path, warm_cache)
    # The protocol is still found: peek() after start() reads the moved self.buf.
    errors = [line for line in stdout.splitlines() if "error:" in line]
    assert any("use-after-transfer" in e and "st.buf" in e for e in errors), stdout
    # Once, after __init__ is checked: each method twice (two phases: the holders of
    # transfers, then the attributes they hold). Built inside __init__ as well, it was
    # three times (a draft per attribute typed, up to MAX_INCOMPLETE). An __init__ that
    # only binds attributes is summarised from its syntax (classes._plain_init): no
    # analysis of it.
    assert counts == {f"Stager.{m}": 2 for m in ("start", "finish", "peek")}, counts


_BUSY_INIT = _PROGRAM.replace(
    "        self.pending = None\n\n    def start",
    "        self.pending = None\n        print(self.buf.shape)\n\n    def start",
)


def test_an_init_that_reads_self_is_analysed(tmp_path: Path, warm_cache: Path) -> None:
    assert _BUSY_INIT != _PROGRAM
    counts, stdout = _builds(tmp_path, warm_cache, _BUSY_INIT)
    errors = [line for line in stdout.splitlines() if "error:" in line]
    assert any("use-after-transfer" in e and "st.buf" in e for e in errors), stdout
    assert counts["Stager.__init__"] == 2, counts
