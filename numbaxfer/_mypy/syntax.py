"""Syntactic helpers: the children of a node, the names a body binds, what nested
functions read and rebind."""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from mypy.nodes import (
    AssertStmt,
    AssertTypeExpr,
    AssignmentExpr,
    AssignmentStmt,
    AwaitExpr,
    Block,
    BreakStmt,
    BytesExpr,
    CallExpr,
    CastExpr,
    ClassDef,
    ComparisonExpr,
    ComplexExpr,
    ConditionalExpr,
    Context,
    ContinueStmt,
    Decorator,
    DelStmt,
    DictExpr,
    DictionaryComprehension,
    EllipsisExpr,
    Expression,
    ExpressionStmt,
    FloatExpr,
    ForStmt,
    FuncDef,
    FuncItem,
    GeneratorExpr,
    GlobalDecl,
    IfStmt,
    Import,
    ImportFrom,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MatchStmt,
    MemberExpr,
    NameExpr,
    Node,
    NonlocalDecl,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    PassStmt,
    RaiseStmt,
    RefExpr,
    ReturnStmt,
    RevealExpr,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    Statement,
    StrExpr,
    SuperExpr,
    TempNode,
    TryStmt,
    TupleExpr,
    TypeApplication,
    TypeInfo,
    UnaryExpr,
    WhileStmt,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)
from mypy.patterns import (
    AsPattern,
    ClassPattern,
    MappingPattern,
    OrPattern,
    SequencePattern,
    StarredPattern,
    ValuePattern,
)

from .memo import by_node
from .names import METADATA
from .paths import path_chain, root_name
from .state import State

# --------------------------------------------------------------------------------------
# Syntactic helpers: children of a node, names bound and read by nested functions
# --------------------------------------------------------------------------------------


LEAVES: Final = frozenset(
    {
        NameExpr,
        IntExpr,
        StrExpr,
        FloatExpr,
        BytesExpr,
        ComplexExpr,
        EllipsisExpr,
        TempNode,
        PassStmt,
        BreakStmt,
        ContinueStmt,
    }
)


def child_nodes(n: Node) -> list[Node]:
    """Direct sub-nodes of a statement, expression or pattern (what we need of them)."""
    fast = _FAST_CHILDREN.get(type(n))
    if fast is not None:
        return fast(n)
    return _child_nodes(n)


def _no_children(n: Node) -> list[Node]:
    return []


def _call_children(n: CallExpr) -> list[Node]:
    return [n.callee, *n.args]


def _expr_child(n: MemberExpr | ExpressionStmt) -> list[Node]:
    return [n.expr]


def _assignment_children(n: AssignmentStmt) -> list[Node]:
    return [n.rvalue, *n.lvalues]


def _block_children(n: Block) -> list[Node]:
    return list(n.body)


def _index_children(n: IndexExpr) -> list[Node]:
    return [n.base, n.index]


def _op_children(n: OpExpr) -> list[Node]:
    return [n.left, n.right]


def _comparison_children(n: ComparisonExpr) -> list[Node]:
    return list(n.operands)


def _items_children(n: TupleExpr | ListExpr | SetExpr) -> list[Node]:
    return list(n.items)


def _return_children(n: ReturnStmt) -> list[Node]:
    return [n.expr] if n.expr is not None else []


def _slice_children(n: SliceExpr) -> list[Node]:
    return [x for x in (n.begin_index, n.end_index, n.stride) if x is not None]


def _for_children(n: ForStmt) -> list[Node]:
    out: list[Node] = [n.expr, n.index, n.body]
    if n.else_body is not None:
        out.append(n.else_body)
    return out


def _generator_children(n: GeneratorExpr) -> list[Node]:
    out: list[Node] = [*n.sequences, *n.indices]
    for conds in n.condlists:
        out.extend(conds)
    out.append(n.left_expr)
    return out


def _if_children(n: IfStmt) -> list[Node]:
    out: list[Node] = []
    for c, b in zip(n.expr, n.body, strict=False):
        out.extend((c, b))
    if n.else_body is not None:
        out.append(n.else_body)
    return out


def _with_children(n: WithStmt) -> list[Node]:
    return [*n.expr, *(t for t in n.target if t is not None), n.body]


def _assert_children(n: AssertStmt) -> list[Node]:
    return [n.expr] if n.msg is None else [n.expr, n.msg]


def _comprehension_children(n: ListComprehension | SetComprehension) -> list[Node]:
    return [n.generator]


def _unary_children(n: UnaryExpr) -> list[Node]:
    return [n.expr]


#: ``child_nodes`` of the commonest node kinds, by exact type: the walks of every body
#: (names bound, free reads, summaries' candidates) meet these most, and the general
#: chain of tests below costs tens of tests for a node near its end.
_FAST_CHILDREN: Final[dict[type, Callable[[Any], list[Node]]]] = {
    **{kind: _no_children for kind in LEAVES},
    CallExpr: _call_children,
    MemberExpr: _expr_child,
    ExpressionStmt: _expr_child,
    AssignmentStmt: _assignment_children,
    Block: _block_children,
    IndexExpr: _index_children,
    OpExpr: _op_children,
    ComparisonExpr: _comparison_children,
    TupleExpr: _items_children,
    ListExpr: _items_children,
    ReturnStmt: _return_children,
    SliceExpr: _slice_children,
    ForStmt: _for_children,
    GeneratorExpr: _generator_children,
    IfStmt: _if_children,
    WithStmt: _with_children,
    AssertStmt: _assert_children,
    ListComprehension: _comprehension_children,
    SetComprehension: _comprehension_children,
    UnaryExpr: _unary_children,
    SuperExpr: _no_children,
    GlobalDecl: _no_children,
    NonlocalDecl: _no_children,
}


#: Node kinds with fast children that bind no name themselves (an assignment's targets
#: are named by the assignment, a walrus is an AssignmentExpr).
_BINDS_NOTHING: Final = frozenset(_FAST_CHILDREN) - {
    AssignmentStmt,
    ForStmt,
    WithStmt,
    GlobalDecl,
    NonlocalDecl,
}


def _child_nodes(n: Node) -> list[Node]:
    if type(n) in LEAVES:
        return []
    out: list[Node] = []
    if isinstance(n, CallExpr):
        out.append(n.callee)
        out.extend(n.args)
    elif isinstance(n, (MemberExpr, ExpressionStmt)):
        out.append(n.expr)
    elif isinstance(n, AssignmentStmt):
        out.append(n.rvalue)
        out.extend(n.lvalues)
    elif isinstance(n, Block):
        out.extend(n.body)
    elif isinstance(n, OperatorAssignmentStmt):
        out.extend((n.lvalue, n.rvalue))
    elif isinstance(n, IfStmt):
        for c, b in zip(n.expr, n.body, strict=False):
            out.extend((c, b))
        if n.else_body is not None:
            out.append(n.else_body)
    elif isinstance(n, WhileStmt):
        out.extend((n.expr, n.body))
        if n.else_body is not None:
            out.append(n.else_body)
    elif isinstance(n, ForStmt):
        out.extend((n.expr, n.index, n.body))
        if n.else_body is not None:
            out.append(n.else_body)
    elif isinstance(n, WithStmt):
        out.extend(n.expr)
        out.extend(t for t in n.target if t is not None)
        out.append(n.body)
    elif isinstance(n, TryStmt):
        out.append(n.body)
        out.extend(t for t in n.types if t is not None)
        out.extend(v for v in n.vars if v is not None)
        out.extend(n.handlers)
        if n.else_body is not None:
            out.append(n.else_body)
        if n.finally_body is not None:
            out.append(n.finally_body)
    elif isinstance(n, MatchStmt):
        out.append(n.subject)
        for p, g, b in zip(n.patterns, n.guards, n.bodies, strict=False):
            out.append(p)
            if g is not None:
                out.append(g)
            out.append(b)
    elif isinstance(n, (ReturnStmt, YieldExpr)):
        if n.expr is not None:
            out.append(n.expr)
    elif isinstance(n, RaiseStmt):
        if n.expr is not None:
            out.append(n.expr)
        if n.from_expr is not None:
            out.append(n.from_expr)
    elif isinstance(n, AssertStmt):
        out.append(n.expr)
        if n.msg is not None:
            out.append(n.msg)
    elif isinstance(n, DelStmt):
        out.append(n.expr)
    elif isinstance(n, Decorator):
        out.extend(n.decorators)
        out.append(n.func)
    elif isinstance(n, FuncItem):
        out.extend(a.initializer for a in n.arguments if a.initializer is not None)
        out.append(n.body)
    elif isinstance(n, OverloadedFuncDef):
        out.extend(n.items)
        if n.impl is not None:
            out.append(n.impl)
    elif isinstance(n, ClassDef):
        out.extend(n.decorators)
        out.extend(n.base_type_exprs)
        out.append(n.defs)
    elif isinstance(n, IndexExpr):
        out.extend((n.base, n.index))
    elif isinstance(n, OpExpr):
        out.extend((n.left, n.right))
    elif isinstance(n, ComparisonExpr):
        out.extend(n.operands)
    elif isinstance(n, ConditionalExpr):
        out.extend((n.cond, n.if_expr, n.else_expr))
    elif isinstance(
        n,
        (UnaryExpr, StarExpr, CastExpr, AssertTypeExpr, AwaitExpr, YieldFromExpr, TypeApplication),
    ):
        out.append(n.expr)
    elif isinstance(n, RevealExpr):
        if n.expr is not None:
            out.append(n.expr)
    elif isinstance(n, AssignmentExpr):
        out.extend((n.value, n.target))
    elif isinstance(n, (TupleExpr, ListExpr, SetExpr)):
        out.extend(n.items)
    elif isinstance(n, DictExpr):
        for k, v in n.items:
            if k is not None:
                out.append(k)
            out.append(v)
    elif isinstance(n, SliceExpr):
        out.extend(x for x in (n.begin_index, n.end_index, n.stride) if x is not None)
    elif isinstance(n, (ListComprehension, SetComprehension)):
        out.append(n.generator)
    elif isinstance(n, GeneratorExpr):
        out.extend(n.sequences)
        out.extend(n.indices)
        for conds in n.condlists:
            out.extend(conds)
        out.append(n.left_expr)
    elif isinstance(n, DictionaryComprehension):
        out.extend(n.sequences)
        out.extend(n.indices)
        for conds in n.condlists:
            out.extend(conds)
        if n.key is not None:
            out.append(n.key)
        out.append(n.value)
    elif isinstance(n, AsPattern):
        if n.pattern is not None:
            out.append(n.pattern)
        if n.name is not None:
            out.append(n.name)
    elif isinstance(n, OrPattern):
        out.extend(n.patterns)
    elif isinstance(n, ValuePattern):
        out.append(n.expr)
    elif isinstance(n, SequencePattern):
        out.extend(n.patterns)
    elif isinstance(n, StarredPattern):
        if n.capture is not None:
            out.append(n.capture)
    elif isinstance(n, MappingPattern):
        out.extend(n.keys)
        out.extend(n.values)
        if n.rest is not None:
            out.append(n.rest)
    elif isinstance(n, ClassPattern):
        out.append(n.class_ref)
        out.extend(n.positionals)
        out.extend(n.keyword_values)
    return out


def stored_targets(n: Node) -> list[Expression]:
    """The targets an assignment, augmented assignment or ``del`` stores into (or
    deletes), tuple and starred targets taken apart; none for other nodes."""
    if isinstance(n, AssignmentStmt):
        todo: list[Expression] = list(n.lvalues)
    elif isinstance(n, OperatorAssignmentStmt):
        todo = [n.lvalue]
    elif isinstance(n, DelStmt):
        todo = [n.expr]
    else:
        return []
    out: list[Expression] = []
    while todo:
        lv = todo.pop()
        if isinstance(lv, (TupleExpr, ListExpr)):
            todo.extend(lv.items)
        elif isinstance(lv, StarExpr):
            todo.append(lv.expr)
        else:
            out.append(lv)
    return out


def target_names(lv: Expression, out: set[str]) -> None:
    if isinstance(lv, NameExpr):
        out.add(lv.name)
    elif isinstance(lv, (TupleExpr, ListExpr)):
        for item in lv.items:
            target_names(item, out)
    elif isinstance(lv, StarExpr):
        target_names(lv.expr, out)


def _bound_names(body: Node) -> frozenset[str]:
    """Names a function body binds (its locals), not looking into nested functions."""
    out, declared = bound_and_declared(body)
    return out - declared


def declared_shared(body: Block) -> frozenset[str]:
    """Names a body declares ``global``/``nonlocal`` (statements only: cheaper than
    ``bound_and_declared``, which walks every expression too). Nested functions and
    classes are their own scopes."""
    return scope_statements(body.body)[1]


def shared_writes(fn: FuncItem) -> frozenset[str]:
    """Names of enclosing scopes that ``fn`` rebinds (``nonlocal x`` / ``global x``)."""
    out, declared = bound_and_declared(fn.body)
    return out & declared


_TARGET_STATEMENTS: Final = (AssignmentStmt, OperatorAssignmentStmt, ForStmt, WithStmt, TryStmt)


def statement_targets(n: Statement, out: set[str]) -> None:
    """Add to ``out`` the names the statement ``n`` itself binds (its targets: not
    what its blocks or expressions bind): assignments, ``for``, ``with ... as``,
    ``except ... as``."""
    if isinstance(n, AssignmentStmt):
        for lv in n.lvalues:
            target_names(lv, out)
    elif isinstance(n, OperatorAssignmentStmt):
        target_names(n.lvalue, out)
    elif isinstance(n, ForStmt):
        target_names(n.index, out)
    elif isinstance(n, WithStmt):
        for t in n.target:
            if t is not None:
                target_names(t, out)
    elif isinstance(n, TryStmt):
        out.update(v.name for v in n.vars if v is not None)


def binds_once(stmts: Sequence[Statement], name: str) -> bool:
    """Is ``name`` bound by exactly one statement of ``stmts`` (nested functions and
    classes apart), never by ``:=``, with no ``del`` and no ``global``/``nonlocal``
    declaration among them (conservative: any of those answers no)?"""
    count = 0
    todo: list[Node] = list(stmts)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, ClassDef)):
            continue
        if isinstance(n, _TARGET_STATEMENTS):
            found: set[str] = set()
            statement_targets(n, found)
            count += name in found
        elif (
            (isinstance(n, AssignmentExpr) and n.target.name == name)
            or isinstance(n, DelStmt)
            or type(n).__name__ in ("GlobalDecl", "NonlocalDecl")
        ):
            return False
        todo.extend(child_nodes(n))
    return count == 1


@by_node
def bound_and_declared(body: Node) -> tuple[frozenset[str], frozenset[str]]:
    """Names a body binds, and those it declares ``global``/``nonlocal``."""
    out: set[str] = set()
    declared: set[str] = set()
    todo: list[Node] = [body]
    while todo:
        n = todo.pop()
        kind = type(n)
        if kind in _BINDS_NOTHING:  # the commonest nodes: straight to their children
            todo.extend(_FAST_CHILDREN[kind](n))
            continue
        if isinstance(n, _TARGET_STATEMENTS):
            statement_targets(n, out)
        elif isinstance(n, AssignmentExpr):
            out.add(n.target.name)
        elif isinstance(n, (FuncDef, Decorator, OverloadedFuncDef, ClassDef)):
            out.add(n.name)
            continue
        elif isinstance(n, LambdaExpr):
            continue
        elif isinstance(n, Import):
            out.update((alias or mod).split(".")[0] for mod, alias in n.ids)
        elif isinstance(n, ImportFrom):
            out.update(alias or name for name, alias in n.names)
        elif isinstance(n, (AsPattern, StarredPattern)):
            nm = n.name if isinstance(n, AsPattern) else n.capture
            if nm is not None:
                out.add(nm.name)
        elif isinstance(n, MappingPattern) and n.rest is not None:
            out.add(n.rest.name)
        elif type(n).__name__ in ("GlobalDecl", "NonlocalDecl"):
            declared.update(getattr(n, "names", ()))
        todo.extend(child_nodes(n))
    return frozenset(out), frozenset(declared)


@by_node
def free_reads(fn: FuncItem) -> frozenset[str]:
    """Path keys that ``fn`` (and functions nested in it) reads from enclosing scopes."""
    return frozenset(free_read_sites(fn))


@by_node
def free_read_sites(fn: FuncItem) -> Mapping[str, Expression]:
    """``free_reads(fn)``, each with its first read in source order (the expression)."""
    local = set(_bound_names(fn.body))
    local.update(a.variable.name for a in fn.arguments)
    reads: dict[str, Expression] = {}

    def note(key: str, node: Expression) -> None:
        old = reads.get(key)
        if old is None or (node.line, node.column) < (old.line, old.column):
            reads[key] = node

    todo: list[Node] = [fn.body]
    while todo:
        n = todo.pop()
        if isinstance(n, (NameExpr, MemberExpr, IndexExpr)):
            chain = path_chain(n)
            if chain is not None:
                if root_name(chain[-1][0]) not in local:
                    note(chain[-1][0], n)
                if isinstance(n, IndexExpr):
                    todo.append(n.index)
                continue
        if isinstance(n, FuncItem) and n is not fn:
            for r, node in free_read_sites(n).items():
                if root_name(r) not in local:
                    note(r, node)
            continue
        if isinstance(n, AssignmentStmt):
            todo.append(n.rvalue)
            for lv in n.lvalues:
                if isinstance(lv, MemberExpr):
                    todo.append(lv.expr)
                elif isinstance(lv, IndexExpr):
                    todo.extend((lv.base, lv.index))
            continue
        todo.extend(child_nodes(n))
    return MappingProxyType(reads)


def sub_blocks(n: Node) -> list[Block]:
    """The blocks of a compound statement (no expressions)."""
    if isinstance(n, Block):
        return [n]
    if isinstance(n, IfStmt):
        return [*n.body, *([n.else_body] if n.else_body is not None else [])]
    if isinstance(n, (WhileStmt, ForStmt)):
        return [n.body, *([n.else_body] if n.else_body is not None else [])]
    if isinstance(n, WithStmt):
        return [n.body]
    if isinstance(n, TryStmt):
        extra = [b for b in (n.else_body, n.finally_body) if b is not None]
        return [n.body, *n.handlers, *extra]
    if isinstance(n, MatchStmt):
        return list(n.bodies)
    return []


def nested_functions(body: Sequence[Statement]) -> tuple[tuple[str | None, FuncItem], ...]:
    """Functions defined by statements of a scope (not inside nested functions), and
    lambdas assigned to names. Lambdas inside other expressions are met by the analysis.
    """
    return scope_statements(body)[0]


#: Statements holding no other statement: nothing below them to walk for a scope's
#: statement facts (the commonest kinds, tested first).
_LEAF_STATEMENTS: Final = frozenset(
    {ExpressionStmt, ReturnStmt, OperatorAssignmentStmt, PassStmt, BreakStmt, ContinueStmt}
)


@by_node
def scope_statements(
    body: Sequence[Statement],
) -> tuple[tuple[tuple[str | None, FuncItem], ...], frozenset[str]]:
    """One walk of a scope's statements (not into nested functions or classes): the
    functions it defines (``nested_functions``) and the names it declares
    ``global``/``nonlocal`` (``declared_shared``)."""
    fns: list[tuple[str | None, FuncItem]] = []
    declared: set[str] = set()
    todo: list[Node] = list(body)
    while todo:
        n = todo.pop()
        kind = type(n)
        if kind in _LEAF_STATEMENTS:
            continue
        if isinstance(n, AssignmentStmt):
            if isinstance(n.rvalue, LambdaExpr):
                for lv in n.lvalues:
                    if isinstance(lv, NameExpr):
                        fns.append((lv.name, n.rvalue))
                fns.append((None, n.rvalue))
        elif isinstance(n, Decorator):
            fns.append((n.name, n.func))
        elif isinstance(n, FuncDef):
            fns.append((n.name, n))
        elif isinstance(n, OverloadedFuncDef):
            for item in n.items:
                if isinstance(item, Decorator):
                    fns.append((None, item.func))
            if n.impl is not None:
                impl = n.impl.func if isinstance(n.impl, Decorator) else n.impl
                fns.append((n.name, impl))
        elif isinstance(n, ClassDef):
            fns.extend((None, m[1]) for m in scope_statements(n.defs.body)[0])
        elif isinstance(n, (GlobalDecl, NonlocalDecl)):
            declared.update(n.names)
        else:
            for b in sub_blocks(n):
                todo.extend(b.body)
    return tuple(fns), frozenset(declared)


def none_test_of(cond: Expression, st: State) -> tuple[str, bool] | None:
    """``X is None`` -> (X, True); ``X is not None`` -> (X, False); a bare ``X`` that
    holds a transfer (Transfer has no __bool__ or __len__: falsy only if None) -> (X,
    False). The bool is the value of ``cond`` for which X is None."""
    if isinstance(cond, ComparisonExpr) and len(cond.operators) == 1:
        op = cond.operators[0]
        left, right = cond.operands
        if op in ("is", "is not"):
            for x, y in ((left, right), (right, left)):
                if isinstance(y, NameExpr) and y.fullname == "builtins.None":
                    chain = path_chain(x)
                    if chain is not None:
                        return chain[-1][0], op == "is"
        return None
    chain = path_chain(cond)
    if chain is not None:
        atoms = st.vals.get(chain[-1][0])
        if atoms and all(a[0] in "OPEW" for a in atoms) and any(a[0] != "O" for a in atoms):
            return chain[-1][0], False
    return None


def cannot_raise(s: Statement) -> bool:
    """Is ``s`` a statement that raises nothing, so that no handler sees the state
    before it: ``pass``, or names bound to a literal, None/True/False or another name
    (``pending = None``, ``a = b``)?"""
    if isinstance(s, PassStmt):
        return True
    if not isinstance(s, AssignmentStmt) or s.type is not None:
        return False
    rv = s.rvalue
    if not isinstance(rv, (NameExpr, IntExpr, StrExpr, FloatExpr, BytesExpr)):
        return False
    return all(isinstance(lv, NameExpr) for lv in s.lvalues)


def catches_all(t: Expression | None) -> bool:
    if t is None:
        return True
    if isinstance(t, NameExpr | MemberExpr):
        return t.fullname in ("builtins.Exception", "builtins.BaseException")
    if isinstance(t, TupleExpr):
        return any(catches_all(i) for i in t.items)
    return False


def literal_truth(e: Expression) -> bool | None:
    if isinstance(e, IntExpr):
        return bool(e.value)
    if isinstance(e, NameExpr) and e.fullname in ("builtins.True", "builtins.False"):
        return e.fullname == "builtins.True"
    return None


#: Calls that only format their arguments (str() / repr() of each).
FORMATTERS: Final = frozenset(
    {"builtins.print", "builtins.repr", "builtins.str", "builtins.format", "builtins.ascii"}
)


def wants_repr(call: CallExpr, arg: Expression) -> bool:
    """Does the formatting ``call`` ask for the ``repr()`` of its argument ``arg``:
    ``repr(x)``, or a ``!r`` field of ``"...".format(...)`` (an f-string's form)?"""
    callee = call.callee
    if isinstance(callee, NameExpr):
        return callee.fullname in ("builtins.repr", "builtins.ascii")
    if not (isinstance(callee, MemberExpr) and isinstance(callee.expr, StrExpr)):
        return False
    try:
        fields = [f for f in string.Formatter().parse(callee.expr.value) if f[1] is not None]
    except ValueError:
        return False
    position = next((i for i, a in enumerate(call.args) if a is arg), None)
    auto = 0
    for _text, name, _spec, conversion in fields:
        index = auto if name == "" else int(name) if name and name.isdigit() else None
        if name == "":
            auto += 1
        if index is not None and index == position:
            return conversion in ("r", "a")
    return False


def is_formatting(callee: Expression) -> bool:
    """Is this the callee of a call that only formats its arguments: ``print``,
    ``repr``, ``str``, ``format``, or ``"...".format`` (mypy's form of an f-string)?"""
    if isinstance(callee, NameExpr):
        return callee.fullname in FORMATTERS
    return (
        isinstance(callee, MemberExpr)
        and callee.name == "format"
        and isinstance(callee.expr, StrExpr)
    )


def keeps_transfers_of(info: TypeInfo, attr: str, stream: str) -> bool:
    """Does a method of the class store into ``self.<attr>`` what a method of its stream
    ``self.<stream>`` returns (``self.pending = self.s.download(...)``)?"""
    for item in info.defn.defs.body:
        fn = item.func if isinstance(item, Decorator) else item
        if not isinstance(fn, FuncDef) or not getattr(fn, "arguments", None):
            continue  # (a method from mypy's cache has no syntax)
        if getattr(fn, "body", None) is None:
            continue
        me = fn.arguments[0].variable.name
        todo: list[Node] = list(fn.body.body)
        while todo:
            n = todo.pop()
            if isinstance(n, AssignmentStmt) and isinstance(n.rvalue, CallExpr):
                callee = n.rvalue.callee
                recv = callee.expr if isinstance(callee, MemberExpr) else None
                if _self_attr(recv, me) == stream and any(
                    _self_attr(lv, me) == attr for lv in n.lvalues
                ):
                    return True
            todo.extend(child_nodes(n))
    return False


def _self_attr(e: Expression | None, me: str) -> str | None:
    if isinstance(e, MemberExpr) and isinstance(e.expr, NameExpr) and e.expr.name == me:
        return e.name
    return None


#: (the element read, its path key, the take-back's line, calls after the take-back
#: with that element among their arguments)
RingRead = tuple[IndexExpr, str, int, tuple[CallExpr, ...]]


@by_node
def reads_before_take_back(body: Block) -> tuple[RingRead, ...]:
    """In a loop body: unconditional reads of an element ``C[e]`` (``with
    bufs[k].write()``, not under an ``if``) in a statement before one that takes it back,
    ``C[e] = t.wait()`` (at the top level of the body, or in an ``if`` there), with no
    name of ``e`` bound in between: the loop's own take-back says ``C[e]`` may still be
    moved from an earlier iteration at the read. Only where calls after the take-back
    pass ``C[e]`` on (the flow engine checks that one moves it). Syntax only."""
    stmts = body.body
    backs: list[tuple[int, str, int]] = []
    for j, st in enumerate(stmts):
        for a in [st, *(x for b in _if_blocks(st) for x in b.body)]:
            key = _take_back_key(a)
            if key is not None:
                backs.append((j, key, a.line))
    if not backs:
        return ()
    stored: dict[str, set[str]] = {}  # container -> the element keys the body stores
    for st in stmts:
        for a in [st, *(x for b in _if_blocks(st) for x in b.body)]:
            if isinstance(a, AssignmentStmt):
                for lv in a.lvalues:
                    chain = path_chain(lv) if isinstance(lv, IndexExpr) else None
                    base = path_chain(lv.base) if isinstance(lv, IndexExpr) else None
                    if chain is not None and base is not None:
                        stored.setdefault(base[-1][0], set()).add(chain[-1][0])
    out: list[RingRead] = []
    for i, st in enumerate(stmts):
        for node, key in _element_reads(st):
            base = path_chain(node.base)
            if base is not None and len(stored.get(base[-1][0], ())) > 1:
                continue  # another element taken back too (``bufs[j]``, the next slot)
            for j, bkey, line in backs:
                if bkey != key or j <= i:
                    continue
                bound: set[str] = set()
                for x in stmts[i:j]:
                    statement_targets(x, bound)
                if bound & _index_names(node):
                    continue
                movers = tuple(c for x in stmts[j + 1 :] for c in _calls_passing(x, key))
                if movers:
                    out.append((node, key, line, movers))
                break
    return tuple(out)


def _if_blocks(st: Statement) -> list[Block]:
    if not isinstance(st, IfStmt):
        return []
    blocks = list(st.body)
    if st.else_body is not None:
        blocks.append(st.else_body)
    return blocks


def _take_back_key(st: Statement) -> str | None:
    """``C[e] = <...>.wait()``: the key of ``C[e]``."""
    if not isinstance(st, AssignmentStmt) or len(st.lvalues) != 1:
        return None
    lv, rv = st.lvalues[0], st.rvalue
    if not isinstance(lv, IndexExpr) or not isinstance(rv, CallExpr) or rv.args:
        return None
    if not isinstance(rv.callee, MemberExpr) or rv.callee.name != "wait":
        return None
    chain = path_chain(lv)
    return chain[-1][0] if chain is not None else None


def _element_reads(st: Statement) -> list[tuple[IndexExpr, str]]:
    """Element paths ``C[e]`` the statement reads (not stores, not metadata)."""
    out: list[tuple[IndexExpr, str]] = []
    stores = {id(t) for t in stored_targets(st)} if isinstance(st, AssignmentStmt) else set()
    todo: list[tuple[Node, Node | None]] = [(st, None)]
    while todo:
        n, parent = todo.pop()
        if isinstance(n, (FuncItem, ClassDef, IfStmt, MatchStmt, ForStmt, WhileStmt, TryStmt)):
            continue  # (a read under a test may be guarded: silence)
        if isinstance(n, IndexExpr) and id(n) not in stores:
            meta = isinstance(parent, MemberExpr) and parent.name in METADATA
            chain = path_chain(n)
            if chain is not None and not meta:
                out.append((n, chain[-1][0]))
        todo.extend((c, n) for c in child_nodes(n))
    return out


def _index_names(e: IndexExpr) -> set[str]:
    out: set[str] = set()
    todo: list[Node] = [e.index]
    while todo:
        n = todo.pop()
        if isinstance(n, NameExpr):
            out.add(n.name)
        todo.extend(child_nodes(n))
    return out


def _calls_passing(st: Statement, key: str) -> list[CallExpr]:
    out: list[CallExpr] = []
    todo: list[Node] = [st]
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, ClassDef)):
            continue
        if isinstance(n, CallExpr):
            for a in n.args:
                chain = path_chain(a)
                if chain is not None and chain[-1][0] == key:
                    out.append(n)
                    break
        todo.extend(child_nodes(n))
    return out


@by_node
def yields_away(fn: FuncItem) -> bool:
    """Does ``fn``'s body (not a nested function's) hold ``yield <path>`` as a statement
    (what ``send()`` gives back is dropped)?"""
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, ClassDef)):
            continue
        if (
            isinstance(n, ExpressionStmt)
            and isinstance(n.expr, YieldExpr)
            and n.expr.expr is not None
            and path_chain(n.expr.expr) is not None
        ):
            return True
        todo.extend(child_nodes(n))
    return False


def same_block(body: Block, inner: Context, outer: Context) -> bool:
    """Does the innermost block of ``body`` (of an ``if``/``elif``/``else``, a loop, a
    ``with``, a ``try``) holding ``inner`` also hold ``outer``? Positions only."""
    best: tuple[int, int, int, int] | None = None
    todo: list[Node] = list(body.body)
    at = (inner.line, inner.column)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, ClassDef)):
            continue
        if isinstance(n, ConditionalExpr) and any(
            _holds(x, inner) for x in (n.if_expr, n.else_expr)
        ):
            return False  # ``x.read() if idle else ...``: under a test of its own
        if isinstance(n, OpExpr) and n.op in ("and", "or") and _holds(n.right, inner):
            return False
        if isinstance(n, Block) and n.body:
            first, last = n.body[0], n.body[-1]
            span = (first.line, first.column, last.end_line or last.line, 10**6)
            inside = (span[0], span[1]) <= at <= (span[2], span[3])
            if inside and (best is None or (span[0], span[1]) >= (best[0], best[1])):
                best = span
        todo.extend(child_nodes(n))
    if best is None:
        return True  # the function's own body
    return (best[0], best[1]) <= (outer.line, outer.column) <= (best[2], best[3])


def _holds(e: Node, inner: Context) -> bool:
    """Is ``inner`` ``e`` or inside it (identity)?"""
    todo: list[Node] = [e]
    while todo:
        n = todo.pop()
        if n is inner:
            return True
        todo.extend(child_nodes(n))
    return False


@by_node
def skips_some(body: Node) -> bool:
    """Does a loop body leave some iterations early (``continue``, or a ``break``) at
    its own level (not a nested loop's)? Then it may skip the element it meets."""
    todo: list[Node] = [body]
    while todo:
        n = todo.pop()
        if isinstance(n, (ContinueStmt, BreakStmt)):
            return True
        if isinstance(n, (FuncItem, ClassDef, ForStmt, WhileStmt)) and n is not body:
            continue
        todo.extend(child_nodes(n))
    return False


def never_exhausts(s: ForStmt) -> bool:
    """Is ``s`` a retry loop, ``for attempt in range(n):`` whose every path to the next
    iteration (a ``continue``, or the end of the body) passes a guard ``if <test of
    attempt>: raise`` (or ``return``) first? Then the loop is left by ``break``,
    ``return`` or ``raise`` only, as far as the checker assumes: the guard is taken to
    stop the last attempt (if it does not, what the exhausted loop leaves is missed)."""
    if not isinstance(s.index, NameExpr) or s.else_body is not None:
        return False
    it = s.expr
    if not (
        isinstance(it, CallExpr) and isinstance(it.callee, NameExpr) and it.callee.name == "range"
    ):
        return False
    falls, guarded, ok = _retry_paths(s.body.body, s.index.name, False)
    return ok and (not falls or guarded)


def _retry_paths(stmts: list[Statement], var: str, guarded: bool) -> tuple[bool, bool, bool]:
    """(may fall off the end, guarded where it does, every ``continue`` guarded)."""
    ok = True
    for s in stmts:
        if isinstance(s, ContinueStmt):
            return False, guarded, ok and guarded
        if isinstance(s, (BreakStmt, ReturnStmt, RaiseStmt)):
            return False, guarded, ok
        if isinstance(s, IfStmt) and _is_guard(s, var):
            guarded = True
            continue
        blocks: list[list[Statement]] = []
        falls_also = False
        if isinstance(s, IfStmt):
            blocks = [b.body for b in s.body]
            if s.else_body is not None:
                blocks.append(s.else_body.body)
            else:
                falls_also = True
        elif isinstance(s, TryStmt):
            if s.finally_body is not None and _has_jump(s.finally_body.body):
                return True, False, False
            body = [*s.body.body, *(s.else_body.body if s.else_body is not None else [])]
            blocks = [body, *(h.body for h in s.handlers)]
        elif isinstance(s, WithStmt):
            blocks = [s.body.body]
        else:
            continue  # a nested loop's ``continue`` is its own
        outs = [_retry_paths(b, var, guarded) for b in blocks]
        ok = ok and all(o[2] for o in outs)
        falling = [o for o in outs if o[0]]
        if not falling and not falls_also:
            return False, guarded, ok
        guarded = all(o[1] for o in falling) and (guarded or not falls_also)
    return True, guarded, ok


def _is_guard(s: IfStmt, var: str) -> bool:
    """``if attempt == retries - 1: raise`` (no else; its test reads ``var``)."""
    if s.else_body is not None or len(s.body) != 1 or not s.body[0].body:
        return False
    last = s.body[0].body[-1]
    if not isinstance(last, (RaiseStmt, ReturnStmt)):
        return False
    todo: list[Node] = [s.expr[0]]
    while todo:
        n = todo.pop()
        if isinstance(n, NameExpr) and n.name == var:
            return True
        todo.extend(child_nodes(n))
    return False


def _has_jump(stmts: list[Statement]) -> bool:
    todo: list[Node] = list(stmts)
    while todo:
        n = todo.pop()
        if isinstance(n, (ContinueStmt, BreakStmt, ReturnStmt)):
            return True
        if isinstance(n, (FuncItem, ClassDef, ForStmt, WhileStmt)):
            continue
        todo.extend(child_nodes(n))
    return False


def every_iteration(fn: FuncItem, node: Context) -> bool:
    """Does ``node`` run on every iteration of the innermost ``for`` loop of ``fn``
    holding it: a statement of the loop's own body (a ``with`` aside), not under a test,
    a handler, a nested loop or a conditional expression? Positions only; False where
    no loop holds it."""
    loop: ForStmt | None = None
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, ClassDef)):
            continue
        if (
            isinstance(n, ForStmt)
            and _holds(n.body, node)
            and (loop is None or (n.line, n.column) > (loop.line, loop.column))
        ):
            loop = n
        todo.extend(child_nodes(n))
    if loop is None:
        return False
    stmts: list[Node] = list(loop.body.body)
    while stmts:
        s = stmts.pop()
        if not _holds(s, node):
            continue
        if isinstance(s, WithStmt):
            stmts.extend(s.body.body)
            continue
        if isinstance(s, (IfStmt, TryStmt, MatchStmt, WhileStmt, ForStmt)):
            return False
        inner: list[Node] = [s]
        while inner:
            x = inner.pop()
            if isinstance(x, ConditionalExpr) and any(
                _holds(y, node) for y in (x.if_expr, x.else_expr)
            ):
                return False
            if isinstance(x, OpExpr) and x.op in ("and", "or") and _holds(x.right, node):
                return False
            if isinstance(x, (FuncItem, LambdaExpr)) and _holds(x, node):
                return False
            inner.extend(child_nodes(x))
        return True
    return False


def drain_on_every_path(fn: FuncItem, line: int) -> bool:
    """Does the ``for`` loop holding line ``line`` run on every path by which ``fn``
    returns: a statement of its body (``with`` blocks aside) with no statement before it
    that may leave (``return``, ``raise``, ``assert``, ``yield``)? Positions only."""
    stmts = fn.body.body
    while True:
        at = [i for i, s in enumerate(stmts) if s.line <= line]
        if not at:
            return False
        i = at[-1]
        if any(_may_leave(s) for s in stmts[:i]):
            return False
        s = stmts[i]
        if isinstance(s, WithStmt):
            stmts = s.body.body
            continue
        return isinstance(s, ForStmt) and s.line < line


def _may_leave(s: Node) -> bool:
    todo: list[Node] = [s]
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, ClassDef)):
            continue
        if isinstance(n, (ReturnStmt, RaiseStmt, AssertStmt, YieldExpr, YieldFromExpr)):
            return True
        todo.extend(child_nodes(n))
    return False


#: Handlers of these catch whatever goes wrong: an error path, not a recovery.
_CATCH_ALL: Final = frozenset({"builtins.BaseException", "builtins.Exception"})


def recovers(typ: Expression | None, last: Statement) -> bool:
    """Does a handler of ``typ`` whose last statement is ``last`` go on as normal: it
    skips the item (``continue``), or it answers the call (``return``) for an
    exception of a named class (``except CorruptPacket: return None``), not a
    catch-all (bare ``except``, ``Exception``, ``BaseException``)?"""
    if isinstance(last, ContinueStmt):
        return True
    if not isinstance(last, ReturnStmt) or typ is None:
        return False
    named = typ.items if isinstance(typ, TupleExpr) else [typ]
    return all(
        isinstance(t, RefExpr) and bool(t.fullname) and t.fullname not in _CATCH_ALL for t in named
    )


def named_once(fn: FuncItem, me: str, attr: str) -> bool:
    """Does ``fn``'s body (not a nested function's) spell ``me.attr`` exactly once?"""
    seen = 0
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, ClassDef)):
            continue
        if (
            isinstance(n, MemberExpr)
            and n.name == attr
            and isinstance(n.expr, NameExpr)
            and n.expr.name == me
        ):
            seen += 1
            if seen > 1:
                return False
        todo.extend(child_nodes(n))
    return seen == 1


def has_syntax(fn: FuncItem) -> bool:
    """Has ``fn`` its arguments and body? A function mypy loads from its cache has
    neither (reading them raises): nothing to look into."""
    return getattr(fn, "arguments", None) is not None and getattr(fn, "body", None) is not None
