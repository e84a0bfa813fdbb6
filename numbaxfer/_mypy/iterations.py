"""The last iteration of a counted loop: ``for k in range(n)`` where the body tests
``if k + 1 < n:`` (or ``k < n - 1``, ``k + 1 == n``, ...).

Such a test is false on the last iteration only, so what its false branch leaves (a
prefetch not started, a holder not rebound) reaches the loop's exit and never its next
iteration. ``flow.Analysis.for_`` keeps those paths apart with a flag and sends them to
the exit only: ``pending = self._send(0)``, then ``for k in range(n): host =
pending.wait(); if k + 1 < n: pending = self._send(k + 1)`` completes each transfer once.
"""

from __future__ import annotations

from typing import Final

from mypy.nodes import (
    CallExpr,
    ComparisonExpr,
    Expression,
    ForStmt,
    IntExpr,
    MemberExpr,
    NameExpr,
    Node,
    OpExpr,
    TupleExpr,
)

from .syntax import child_nodes, stored_targets

#: ``k + a <op> n + b``: the ops whose value differs on the last iteration only, with the
#: difference (k + a) - (n + b) they need there (other iterations have a smaller one).
_LAST_AT: Final = {"<": 0, ">=": 0, "==": 0, "!=": 0, "<=": 1, ">": 1}
_FLIPPED: Final = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


def _text(e: Expression) -> str | None:
    """A canonical spelling of a bound: a name, an attribute, ``len(...)`` of one."""
    if isinstance(e, NameExpr):
        return e.name
    if isinstance(e, MemberExpr):
        base = _text(e.expr)
        return f"{base}.{e.name}" if base is not None else None
    if (
        isinstance(e, CallExpr)
        and isinstance(e.callee, NameExpr)
        and e.callee.fullname == "builtins.len"
        and len(e.args) == 1
    ):
        inner = _text(e.args[0])
        return f"len({inner})" if inner is not None else None
    return None


def _offset(e: Expression) -> tuple[str, int] | None:
    """``x``, ``x + 1``, ``1 + x``, ``x - 1`` -> (text of x, offset)."""
    if isinstance(e, OpExpr) and e.op in ("+", "-"):
        if isinstance(e.right, IntExpr):
            base = _text(e.left)
            step = e.right.value if e.op == "+" else -e.right.value
            return (base, step) if base is not None else None
        if e.op == "+" and isinstance(e.left, IntExpr):
            base = _text(e.right)
            return (base, e.left.value) if base is not None else None
        return None
    base = _text(e)
    return (base, 0) if base is not None else None


def loop_bound(s: ForStmt) -> tuple[str, str] | None:
    """(index name, text of the bound n) of ``for k in range(n)``, ``range(0, n)`` or
    ``for k, x in enumerate(xs)`` (n = ``len(xs)``), where the body rebinds neither k nor
    what n is spelled with; None for any other loop (and one with an ``else``)."""
    if s.else_body is not None:
        return None
    it = s.expr
    if not isinstance(it, CallExpr) or not isinstance(it.callee, NameExpr) or any(it.arg_names):
        return None
    index: Expression = s.index
    name = it.callee.fullname
    bound: str | None = None
    if name == "builtins.range" and len(it.args) in (1, 2):
        start = it.args[0] if len(it.args) == 2 else None
        if start is not None and not (isinstance(start, IntExpr) and start.value == 0):
            return None
        bound = _text(it.args[-1])
    elif name == "builtins.enumerate" and len(it.args) == 1:
        if not isinstance(index, TupleExpr) or len(index.items) != 2:
            return None
        index = index.items[0]
        inner = _text(it.args[0])
        bound = f"len({inner})" if inner is not None else None
    if bound is None or not isinstance(index, NameExpr):
        return None
    k = index.name
    inner = bound[4:-1] if bound.startswith("len(") else bound

    def rebinds(t: str | None) -> bool:
        return t is not None and (t == k or inner == t or inner.startswith(t + "."))

    todo: list[Node] = [s.body]
    while todo:
        n = todo.pop()
        if any(rebinds(_text(lv)) for lv in stored_targets(n)):
            return None
        if isinstance(n, ForStmt) and isinstance(n.index, NameExpr) and rebinds(n.index.name):
            return None
        todo.extend(child_nodes(n))
    return k, bound


def last_truth(cond: Expression, k: str, bound: str) -> bool | None:
    """The value ``cond`` has on the last iteration of a loop of ``k`` over ``bound``,
    where that value is the opposite of the one it has on every other iteration (None:
    ``cond`` is no such test)."""
    if not isinstance(cond, ComparisonExpr) or len(cond.operators) != 1:
        return None
    op = cond.operators[0]
    left, right = (_offset(x) for x in cond.operands)
    if left is None or right is None:
        return None
    if left[0] == bound and right[0] == k:
        left, right, op = right, left, _FLIPPED[op]
    if left[0] != k or right[0] != bound or op not in _LAST_AT:
        return None
    # On the last iteration k = bound - 1: (k + a) - (bound + b) = a - b - 1.
    if left[1] - right[1] - 1 != _LAST_AT[op]:
        return None
    return op in (">=", "==", ">")
