"""Which exceptions a statement may raise, for the handlers of a ``try``.

A handler of a class only the program's own code can raise (``except DiagnosticError:``,
a class defined outside the builtins, numbaxfer, numpy, numba and the CUDA bindings)
cannot be entered from a statement that runs no code of the program: ``self.buf =
down.wait()`` raises only numbaxfer's (and CUDA's) errors, so such a handler never sees
the state before it (where ``self.buf`` is still moved). The analysis (``flow.py``)
delivers that state only to the handlers that may catch what numbaxfer raises, and to
the ``try``'s outer handlers and ``finally``. Where in doubt (a call of the program's
code, a property, an operator on the program's objects, ``with``, ``for``, ``raise``),
a statement may raise anything."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.nodes import (
    AssertStmt,
    AssignmentStmt,
    BytesExpr,
    CallExpr,
    ComparisonExpr,
    Expression,
    ExpressionStmt,
    FloatExpr,
    IfStmt,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OpExpr,
    RefExpr,
    ReturnStmt,
    SliceExpr,
    StrExpr,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
    WhileStmt,
)
from mypy.types import Instance, NoneType, get_proper_type

from .elements import (
    INERT_MODULES,
    inert_module,
    inert_receiver,
    maybe_callable,
    user_call,
    value_type,
)
from .syntax import child_nodes

#: Modules whose code may raise (numbaxfer calls numba and the CUDA bindings; numpy
#: and the builtins raise builtin exceptions): a handler of a class defined anywhere
#: else catches only what the program's own code raises.
_RAISING_MODULES: Final = INERT_MODULES | frozenset({"numba", "cuda", "warnings"})


def program_exception(t: Expression | None) -> bool:
    """Is ``t`` (an ``except`` clause's type) a class that only the program's own code
    can raise: defined outside the builtins, numbaxfer, numpy, numba and the CUDA
    bindings (``except DiagnosticError:``)? A tuple, an alias, a variable: no."""
    if not isinstance(t, RefExpr) or not isinstance(t.node, TypeInfo):
        return False
    return t.node.module_name.split(".", 1)[0] not in _RAISING_MODULES


def _plain_attribute(e: MemberExpr) -> bool:
    """Does reading or storing ``e`` run no code of the program: an attribute of an
    object of numbaxfer, numpy or the builtins, or a plain variable (no property, no
    ``__getattr__``/``__setattr__``) of the program's class?"""
    if inert_receiver(e.expr):
        return True
    base = get_proper_type(value_type(e.expr) or NoneType())
    if not isinstance(base, Instance):
        return False
    info = base.type
    hooks = [info.get(m) for m in ("__getattr__", "__getattribute__", "__setattr__")]
    if not all(h is None or inert_module(h.fullname or "") for h in hooks):
        return False  # the class defines one of its own
    sym = info.get(e.name)
    return sym is not None and isinstance(sym.node, Var) and not sym.node.is_property


#: Is this call a method of an object the analysis' state says is numbaxfer's (a
#: handle or a transfer whose type mypy has not inferred yet)?
Known = Callable[[CallExpr], bool]


def _never(_call: CallExpr) -> bool:
    return False


def _library_call(e: CallExpr, known: Known) -> bool:
    """A call of numbaxfer's or numpy's (by name, or a method of an object of theirs),
    keyword arguments too (``s.upload(h, to=dev)``), none of them possibly a callable."""
    if any(maybe_callable(a) for a in e.args):
        return False
    callee = e.callee
    name = callee.fullname if isinstance(callee, RefExpr) else ""
    if name:
        return name.split(".", 1)[0] in ("numbaxfer", "numpy")
    if isinstance(callee, MemberExpr):
        return known(e) or (inert_receiver(callee.expr) and not _builtin_receiver(callee.expr))
    return False


def _builtin_receiver(e: Expression) -> bool:
    """A builtin object's method may take a callable by keyword (``list.sort(key=)``)."""
    t = get_proper_type(value_type(e) or NoneType())
    return isinstance(t, Instance) and t.type.module_name == "builtins"


def _quiet_expression(e: Node, known: Known = _never) -> bool:
    """Does evaluating ``e`` run no code of the program (so it cannot raise the
    program's exceptions)? Names, literals, attribute reads of plain variables, calls
    ``user_call`` clears, indexing and operators on values of numbaxfer, numpy or the
    builtins."""
    todo: list[Node] = [e]
    while todo:
        n = todo.pop()
        if isinstance(n, (NameExpr, IntExpr, StrExpr, FloatExpr, BytesExpr, LambdaExpr)):
            continue
        if isinstance(n, MemberExpr):
            if not _plain_attribute(n):
                return False
            todo.append(n.expr)
        elif isinstance(n, CallExpr):
            if user_call(n) and not _library_call(n, known):
                return False
            todo.extend(n.args)
            if isinstance(n.callee, MemberExpr):
                todo.append(n.callee.expr)  # the method itself is numbaxfer's, numpy's
        elif isinstance(n, IndexExpr):
            if not inert_receiver(n.base):
                return False
            todo.extend((n.base, n.index))
        elif isinstance(n, (OpExpr, ComparisonExpr, UnaryExpr)):
            operands = (
                [n.left, n.right]
                if isinstance(n, OpExpr)
                else list(n.operands)
                if isinstance(n, ComparisonExpr)
                else [n.expr]
            )
            if not all(inert_receiver(o) for o in operands):
                return False
            todo.extend(operands)
        elif isinstance(n, (TupleExpr, ListExpr, SliceExpr)):
            todo.extend(child_nodes(n))
        else:
            return False
    return True


def _quiet_target(lv: Expression, known: Known = _never) -> bool:
    if isinstance(lv, NameExpr):
        return True
    if isinstance(lv, MemberExpr):
        return _plain_attribute(lv) and _quiet_expression(lv.expr, known)
    if isinstance(lv, IndexExpr):
        return (
            inert_receiver(lv.base)
            and _quiet_expression(lv.base, known)
            and _quiet_expression(lv.index, known)
        )
    if isinstance(lv, (TupleExpr, ListExpr)):
        return all(_quiet_target(i, known) for i in lv.items)
    return False


def raises_only_library(s: Node, known: Known = _never) -> bool:
    """Can statement ``s`` (what runs of it before its body: an ``if``'s test, a
    ``for``'s iterable) raise only what numbaxfer, numpy and the builtins raise, never
    an exception class of the program? An expression statement, an assignment, an
    ``assert``, a ``return``, an ``if``/``while`` test whose parts run no code of the
    program (``_quiet_expression``). ``raise``, ``with``, ``for``, ``del`` and the rest:
    no."""
    if isinstance(s, ExpressionStmt):
        return _quiet_expression(s.expr, known)
    if isinstance(s, AssignmentStmt):
        return _quiet_expression(s.rvalue, known) and all(
            _quiet_target(lv, known) for lv in s.lvalues
        )
    if isinstance(s, OperatorAssignmentStmt):
        return (
            _quiet_target(s.lvalue)
            and inert_receiver(s.lvalue)
            and inert_receiver(s.rvalue)
            and _quiet_expression(s.rvalue, known)
        )
    if isinstance(s, AssertStmt):
        return _quiet_expression(s.expr, known) and (
            s.msg is None or _quiet_expression(s.msg, known)
        )
    if isinstance(s, ReturnStmt):
        return s.expr is None or _quiet_expression(s.expr, known)
    if isinstance(s, (IfStmt, WhileStmt)):
        tests = s.expr if isinstance(s, IfStmt) else [s.expr]
        return all(_quiet_expression(c, known) for c in tests)
    return False


#: The classes an ``except`` may name to catch ``nx.StreamClosedError``.
_CLOSED_BASES: Final = frozenset(
    {
        "numbaxfer._errors.StreamClosedError",
        "numbaxfer._errors.OwnershipError",
        "numbaxfer.StreamClosedError",
        "numbaxfer.OwnershipError",
        "builtins.Exception",
        "builtins.BaseException",
    }
)


def catches_stream_closed(t: Expression | None) -> bool:
    """Does ``except t:`` catch ``nx.StreamClosedError`` (a bare ``except``, the class
    or a base of it, a tuple with one)? A program that expects a closed stream's
    refusal there uses it on purpose."""
    if t is None:
        return True
    if isinstance(t, TupleExpr):
        return any(catches_stream_closed(i) for i in t.items)
    if isinstance(t, RefExpr):
        node = t.node
        name = node.fullname if isinstance(node, TypeInfo) else t.fullname
        return name in _CLOSED_BASES
    return False
