"""Paths: the names, attributes and index expressions the analysis tracks (``host``,
``self.buf``, ``bufs[0]``, ``bufs[$i]``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from mypy.nodes import (
    Context,
    Expression,
    IndexExpr,
    IntExpr,
    MemberExpr,
    NameExpr,
    StrExpr,
    UnaryExpr,
)

from .state import Chain, PosKey

# --------------------------------------------------------------------------------------
# Paths
# --------------------------------------------------------------------------------------


def path_chain(e: Expression) -> Chain | None:
    """``self.bufs[0]`` -> [("self", e1), ("self.bufs", e2), ("self.bufs[0]", e)]."""
    if isinstance(e, NameExpr):
        return [(e.name, e)]
    if isinstance(e, MemberExpr):
        base = path_chain(e.expr)
        if base is None:
            return None
        base.append((base[-1][0] + "." + e.name, e))
        return base
    if isinstance(e, IndexExpr):
        idx = _index_key(e.index)
        if idx is None:
            return None
        base = path_chain(e.base)
        if base is None:
            return None
        base.append((base[-1][0] + "[" + idx + "]", e))
        return base
    return None


def _index_key(e: Expression) -> str | None:
    if isinstance(e, IntExpr):
        return str(e.value)
    if isinstance(e, StrExpr):
        return repr(e.value)
    if isinstance(e, UnaryExpr) and e.op == "-" and isinstance(e.expr, IntExpr):
        return str(-e.expr.value)
    if isinstance(e, NameExpr):
        return "$" + e.name
    return None


_INDEX_NAME: Final = re.compile(r"\[\$([A-Za-z_][A-Za-z0-9_]*)\]")


def root_name(key: str) -> str:
    for i, ch in enumerate(key):
        if ch in ".[":
            return key[:i]
    return key


def path_extends(key: str, prefix: str) -> bool:
    return len(key) > len(prefix) and key.startswith(prefix) and key[len(prefix)] in ".["


def depends_on_name(key: str, name: str) -> bool:
    """Does the value at ``key`` stop being the same when ``name`` is rebound?"""
    return root_name(key) == name or ("[$" in key and name in _INDEX_NAME.findall(key))


def display_path(key: str) -> str:
    return key.replace("[$", "[")


def path_prefixes(key: str) -> Iterator[str]:
    depth = 0
    for i, ch in enumerate(key):
        if ch == "[":
            if depth == 0:
                yield key[:i]
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "." and depth == 0:
            yield key[:i]
    yield key


def position_key(n: Context) -> PosKey:
    return (n.line, n.column, n.end_line or -1, n.end_column or -1)
