"""The public namespace loads its names on first use (PEP 562), so that importing the
mypy plugin, a submodule of the package, loads no numpy, numba or CUDA into mypy; and
to mypy the names are the ``TYPE_CHECKING`` imports, which must list the same names."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import numbaxfer as nx

INIT = Path(nx.__file__)


def _type_checking_imports() -> dict[str, str]:
    tree = ast.parse(INIT.read_text())
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.level == 1, ast.unparse(imp)
                for alias in imp.names:
                    out[alias.asname or alias.name] = f".{imp.module}"
    return out


def test_the_plugin_imports_no_runtime_dependency() -> None:
    code = (
        "import sys, numbaxfer.mypy_plugin\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'numba', 'numba_cuda', 'cuda') or m.startswith('numbaxfer._') "
        "and not m.startswith(('numbaxfer._mypy', 'numbaxfer._wording')))\n"
        "print(heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]", f"importing the plugin loaded {out.strip()}"


def test_type_checking_imports_match_the_lazy_table() -> None:
    assert _type_checking_imports() == nx._EXPORTS
    assert set(nx.__all__) == set(nx._EXPORTS)


@pytest.mark.parametrize("name", sorted(nx._EXPORTS))
def test_each_public_name_is_its_module_object(name: str) -> None:
    module = importlib.import_module(nx._EXPORTS[name], "numbaxfer")
    assert getattr(nx, name) is getattr(module, name)
    assert name in dir(nx)


def test_star_import_gives_every_public_name() -> None:
    space: dict[str, object] = {}
    exec("from numbaxfer import *", space)
    assert set(nx.__all__) <= set(space)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'strem'"):
        nx.strem  # type: ignore[attr-defined]  # noqa: B018
