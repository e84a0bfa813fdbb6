"""Flags: local variables that hold one of a few constants and decide, by a test, which
code runs (``sent = True`` ... ``if sent: buf = up.wait()``; ``phase = Phase.FILL`` ...
``match phase``). The analysis keeps the paths that give a flag different values apart
(``State.parts``, trace partitioning), so a test of the flag selects the paths where it
holds: the take-back guarded by ``if sent`` is on the paths that sent.

A flag is a local name of a function whose every binding is ``name = <value>`` with one
target, where each value is True, False, None, a member of an enum (``Phase.FILL``), a
conditional expression of those, or a test (a comparison, ``not``, ``isinstance(...)``,
``bool(...)``, ``and``/``or`` of tests: True or False); or a parameter declared ``bool``.
It must be tested by a statement: as the condition of ``if``/``while``/``assert``, or
compared there with ``is``/``==`` to a constant, or as the subject of ``match``. Names a
nested function rebinds (``nonlocal``), names declared ``global``/``nonlocal`` and
parameters not declared ``bool`` are not flags. A flag bound any other way holds
``TOP``, a value no test narrows. A flag's abstract value is the set of constants it
may hold; a name absent from ``State.flags`` may hold any of them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

from mypy.nodes import (
    AssertStmt,
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    ConditionalExpr,
    Decorator,
    DelStmt,
    Expression,
    FuncDef,
    FuncItem,
    GlobalDecl,
    IfStmt,
    Import,
    ImportFrom,
    MatchStmt,
    MemberExpr,
    NameExpr,
    Node,
    NonlocalDecl,
    OpExpr,
    OverloadedFuncDef,
    Statement,
    TypeInfo,
    UnaryExpr,
    Var,
    WhileStmt,
)
from mypy.patterns import (
    OrPattern,
    Pattern,
    SingletonPattern,
    ValuePattern,
)
from mypy.types import Instance, get_proper_type

from .memo import by_node
from .syntax import (
    bound_and_declared,
    child_nodes,
    statement_targets,
    sub_blocks,
    target_names,
)

FALSE: Final = 0
TRUE: Final = 1
NONE: Final = 2
#: A value other than the flag's constants (it was bound some other way): no test of
#: it selects paths.
TOP: Final = -1
TOP_SET: Final = frozenset({TOP})
BOOL: Final = frozenset({FALSE, TRUE})
#: Constants that are falsy (enum members are truthy unless their class says otherwise:
#: a truth test of one narrows nothing).
_FALSY: Final = frozenset({FALSE, NONE})
_BUILTIN: Final = {"builtins.False": FALSE, "builtins.True": TRUE, "builtins.None": NONE}
#: Enum members met so far (fullname -> code; a code only ever means one member).
_MEMBERS: dict[str, int] = {}
_TESTS: Final = frozenset(
    {"builtins.isinstance", "builtins.issubclass", "builtins.bool", "builtins.callable"}
    | {"builtins.hasattr", "builtins.all", "builtins.any"}
)


def constant(e: Expression) -> int | None:
    """The code of a constant a flag may hold: True/False/None, or an enum member."""
    if isinstance(e, NameExpr):
        return _BUILTIN.get(e.fullname)
    if isinstance(e, MemberExpr) and isinstance(e.expr, NameExpr | MemberExpr):
        info = e.expr.node
        if isinstance(info, TypeInfo) and info.is_enum:
            sym = info.names.get(e.name)
            if sym is not None and isinstance(sym.node, Var) and not sym.node.is_property:
                full = f"{info.fullname}.{e.name}"
                return _MEMBERS.setdefault(full, len(_MEMBERS) + len(_BUILTIN))
    return None


def _is_test(e: Expression) -> bool:
    if isinstance(e, ComparisonExpr):
        return True
    if isinstance(e, UnaryExpr):
        return e.op == "not"
    if isinstance(e, OpExpr) and e.op in ("and", "or"):
        return _is_test(e.left) and _is_test(e.right)
    if isinstance(e, CallExpr) and isinstance(e.callee, NameExpr):
        return e.callee.fullname in _TESTS
    return constant(e) in BOOL


def values(e: Expression) -> frozenset[int] | None:
    """The constants ``name = e`` may give a flag (None: not a flag's value)."""
    c = constant(e)
    if c is not None:
        return frozenset({c})
    if isinstance(e, ConditionalExpr):
        a, b = values(e.if_expr), values(e.else_expr)
        return a | b if a is not None and b is not None else None
    return BOOL if _is_test(e) else None


def truth(vals: frozenset[int], value: bool) -> frozenset[int]:
    """The constants of ``vals`` for which a truth test is ``value``."""
    if value:
        return frozenset(v for v in vals if v not in _FALSY)
    return frozenset(v for v in vals if v != TRUE)


def comparison(e: Expression, flags: Iterable[str]) -> tuple[str, int, bool] | None:
    """``f is C`` / ``f == C`` -> (f, C, True); ``is not`` / ``!=`` -> (f, C, False)."""
    if not (isinstance(e, ComparisonExpr) and len(e.operators) == 1):
        return None
    op = e.operators[0]
    if op not in ("is", "is not", "==", "!="):
        return None
    left, right = e.operands
    for x, y in ((left, right), (right, left)):
        if isinstance(x, NameExpr) and x.name in flags:
            c = constant(y)
            if c is not None:
                return x.name, c, op in ("is", "==")
    return None


def pattern_constants(p: Pattern) -> frozenset[int] | None:
    """The constants a ``case`` pattern matches (``case Phase.FILL | Phase.UPLOAD:``),
    if it matches constants only."""
    if isinstance(p, ValuePattern):
        c = constant(p.expr)
        return frozenset({c}) if c is not None else None
    if isinstance(p, SingletonPattern):
        c = {True: TRUE, False: FALSE, None: NONE}[p.value]
        return frozenset({c})
    if isinstance(p, OrPattern):
        out: set[int] = set()
        for q in p.patterns:
            got = pattern_constants(q)
            if got is None:
                return None
            out |= got
        return frozenset(out)
    return None


def _test(e: Expression | None, tested: dict[str, int]) -> None:
    """Names ``e`` tests, as a condition (``f``, ``not f``, ``f and g``, ``f is C``)."""
    if e is None:
        return
    if isinstance(e, NameExpr):
        tested[e.name] = max(tested.get(e.name, 0), e.line)
    elif isinstance(e, UnaryExpr) and e.op == "not":
        _test(e.expr, tested)
    elif isinstance(e, OpExpr) and e.op in ("and", "or"):
        _test(e.left, tested)
        _test(e.right, tested)
    elif isinstance(e, ComparisonExpr) and len(e.operators) == 1:
        for x, y in (e.operands, e.operands[::-1]):
            if isinstance(x, NameExpr) and constant(y) is not None:
                tested[x.name] = max(tested.get(x.name, 0), x.line)


def _nonlocals(fn: Node) -> set[str]:
    """Names declared ``nonlocal``/``global`` anywhere in ``fn``, nested functions too."""
    out: set[str] = set()
    todo: list[Node] = [fn]
    while todo:
        n = todo.pop()
        if isinstance(n, NonlocalDecl | GlobalDecl):
            out.update(n.names)
        elif isinstance(n, FuncItem):
            todo.append(n.body)
            continue
        elif isinstance(n, Decorator):
            todo.append(n.func)
            continue
        elif isinstance(n, ClassDef):
            todo.append(n.defs)
            continue
        todo.extend(child_nodes(n))
    return out


class Flags(NamedTuple):
    """The flags of a function: name -> the constants it may hold; name -> the line
    of its last test (past that line, outside loops, no test of it runs again)."""

    domains: dict[str, frozenset[int]]
    last_test: dict[str, int]


NO_FLAGS: Final = Flags({}, {})


@by_node
def tracked_flags(fn: FuncItem) -> Flags:
    """The flags of ``fn``; none for most functions. One walk of its statements (not
    their expressions): the tests, the values of ``name = value`` statements and the
    names other statements bind. A flag bound inside an expression (``:=``) holds
    ``TOP`` from there (``flow.Analysis.rebind``)."""
    assigned: dict[str, set[int]] = {}
    bad: set[str] = set()
    tested: dict[str, int] = {}
    todo: list[Statement] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, Block):
            todo.extend(n.body)
            continue
        if isinstance(n, AssignmentStmt):
            lv = n.lvalues[0] if len(n.lvalues) == 1 else None
            vals = values(n.rvalue) if isinstance(lv, NameExpr) else None
            if isinstance(lv, NameExpr) and vals is not None:
                assigned.setdefault(lv.name, set()).update(vals)
            else:
                statement_targets(n, bad)
            continue
        if isinstance(n, DelStmt):
            target_names(n.expr, bad)
            continue
        if isinstance(n, Import | ImportFrom):
            bad.update(bound_and_declared(n)[0])
            continue
        statement_targets(n, bad)  # for, with ... as, except ... as, op-assignments
        if isinstance(n, IfStmt):
            for cond in n.expr:
                _test(cond, tested)
        elif isinstance(n, WhileStmt):
            _test(n.expr, tested)
        elif isinstance(n, AssertStmt):
            _test(n.expr, tested)
            continue
        elif isinstance(n, MatchStmt):
            if isinstance(n.subject, NameExpr):
                tested[n.subject.name] = max(tested.get(n.subject.name, 0), n.line)
            for pattern in n.patterns:
                bad.update(bound_and_declared(pattern)[0])  # capture patterns bind names
        elif isinstance(n, (FuncDef, Decorator, OverloadedFuncDef, ClassDef)):
            bad.update(_nonlocals(n))  # a nested scope may rebind it at any call
            continue
        elif isinstance(n, NonlocalDecl | GlobalDecl):
            bad.update(n.names)  # other scopes rebind it
            continue
        for b in sub_blocks(n):
            todo.extend(b.body)
    if not tested:
        return NO_FLAGS
    for arg in fn.arguments:
        name = arg.variable.name
        declared = arg.variable.type
        p = get_proper_type(declared) if declared is not None else None
        if isinstance(p, Instance) and p.type.fullname == "builtins.bool":
            assigned.setdefault(name, set()).update(BOOL)
        else:
            bad.add(name)  # its value at entry is not among the constants
    domains = {
        name: frozenset(vals)
        for name, vals in assigned.items()
        if name in tested and name not in bad
    }
    if not domains:
        return NO_FLAGS
    return Flags(domains, {name: tested[name] for name in domains})
