"""The plugin's fast paths over syntax agree with the general ones they shortcut.

``numbaxfer/_mypy/syntax.py`` gives the commonest node kinds their children through a
table (``_FAST_CHILDREN``) and the general chain of tests (``_child_nodes``) serves the
rest; ``bound_and_declared`` skips kinds that bind nothing. Every node of every case
file (tests/typesafety/cases, parsed by mypy) must get the same children both ways.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import nodes, patterns
from mypy.errors import Errors
from mypy.nodes import MypyFile, Node
from mypy.options import Options
from mypy.parse import parse

from numbaxfer._mypy import syntax

CASES = Path(__file__).resolve().parents[1] / "typesafety" / "cases"


def _parsed(path: Path) -> MypyFile:
    options = Options()
    return parse(path.read_text(), str(path), path.stem, Errors(options), options, eager=True)


def _nodes(tree: MypyFile) -> list[Node]:
    out: list[Node] = []
    todo: list[Node] = list(tree.defs)
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(syntax._child_nodes(n))
    return out


@pytest.fixture(scope="module")
def trees() -> list[MypyFile]:
    return [_parsed(p) for p in sorted(CASES.glob("*.py"))]


def test_fast_children_agree_with_the_general_chain(trees: list[MypyFile]) -> None:
    seen: set[type] = set()
    for tree in trees:
        for n in _nodes(tree):
            fast = syntax._FAST_CHILDREN.get(type(n))
            if fast is None:
                continue
            seen.add(type(n))
            got, want = fast(n), syntax._child_nodes(n)
            assert [id(c) for c in got] == [id(c) for c in want], (type(n).__name__, n.line)
    # The corpus exercises (nearly) every fast kind, so the agreement means something.
    assert len(seen) >= len(syntax._FAST_CHILDREN) - 4, sorted(
        k.__name__ for k in set(syntax._FAST_CHILDREN) - seen
    )


def test_kinds_skipped_by_bound_and_declared_bind_nothing() -> None:
    """The kinds ``bound_and_declared`` passes straight to their children are none of
    those whose own fields bind or declare a name."""
    binding = {
        nodes.AssignmentStmt,
        nodes.OperatorAssignmentStmt,
        nodes.ForStmt,
        nodes.WithStmt,
        nodes.TryStmt,
        nodes.AssignmentExpr,
        nodes.FuncDef,
        nodes.Decorator,
        nodes.OverloadedFuncDef,
        nodes.ClassDef,
        nodes.LambdaExpr,
        nodes.Import,
        nodes.ImportFrom,
        nodes.GlobalDecl,
        nodes.NonlocalDecl,
        patterns.AsPattern,
        patterns.StarredPattern,
        patterns.MappingPattern,
    }
    assert set(syntax._FAST_CHILDREN) >= syntax._BINDS_NOTHING
    assert not syntax._BINDS_NOTHING & binding, syntax._BINDS_NOTHING & binding
