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
    OpExpr,
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
    if isinstance(e, OpExpr):
        # A ring index (``slots[i % k]``, ``slots[(i + 1) % k]``): the same expression
        # is the same slot while none of its names is rebound; different expressions
        # are not compared (they may or may not be the same slot).
        text = _index_text(e, 0)
        return "$" + text if text is not None else None
    return None


_INDEX_OPS: Final = frozenset({"+", "-", "*", "%", "//"})


def _index_text(e: Expression, depth: int) -> str | None:
    if isinstance(e, NameExpr):
        return e.name
    if isinstance(e, MemberExpr) and depth > 0:
        base = _index_text(e.expr, depth)
        return f"{base}.{e.name}" if base is not None and "(" not in base else None
    if isinstance(e, IntExpr):
        return str(e.value)
    if isinstance(e, OpExpr) and e.op in _INDEX_OPS and depth < 4:
        left = _index_text(e.left, depth + 1)
        right = _index_text(e.right, depth + 1)
        if left is None or right is None:
            return None
        text = f"{left} {e.op} {right}"
        return f"({text})" if depth else text
    return None


_INDEX_NAME: Final = re.compile(r"\[\$([^\[\]]*)\]")
_IDENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def root_name(key: str) -> str:
    for i, ch in enumerate(key):
        if ch in ".[":
            return key[:i]
    return key


def path_extends(key: str, prefix: str) -> bool:
    return len(key) > len(prefix) and key.startswith(prefix) and key[len(prefix)] in ".["


def depends_on_name(key: str, name: str) -> bool:
    """Does the value at ``key`` stop being the same when ``name`` (a name, or an
    attribute path such as ``self.k`` used in a ring index) is rebound?"""
    if root_name(key) == name:
        return True
    if "[$" not in key:
        return False
    for idx in _INDEX_NAME.findall(key):
        for ident in _IDENT.findall(idx):
            if ident == name or ident.startswith(name + "."):
                return True
    return False


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
