"""mypy plugin: the static half of numbaxfer's ownership rules.

Enable it in the mypy configuration of the code that uses numbaxfer::

    [mypy]
    plugins = numbaxfer.mypy_plugin

It reports, with these error codes:

* ``use-after-transfer``: a name or attribute that was passed to a *consuming*
  parameter (one annotated ``numbaxfer.Consumed[T]``, such as the source of
  ``Stream.upload``) is used again before it is rebound, on every path ("is used")
  or on some path ("may be used");
* ``unfinished-transfer``: a transfer that is discarded, dropped by rebinding its
  name, or never completed (``Transfer[None]`` from ``Stream.copy`` is exempt);
* ``transfer-completed-twice``: ``wait()`` on a transfer that was already completed;
* ``lend-escape``: the handle of ``with x.lend() as v:`` used after its block.

Mechanism. mypy calls the plugin's signature hooks for every call it checks, with the
callee's signature (where ``Consumed[T]`` is still visible as a type alias) and the
call expression. When a call moves an argument, starts a transfer, lends, or waits,
the plugin records that fact for the function being checked (keyed on the checker's
binder object, which mypy creates afresh for every function body) and runs a small
forward data-flow analysis over that function's syntax tree: branches, loops (to a
fixed point), ``try``/``except``/``finally``, ``with``, ``match``, early exits,
comprehensions, conditional expressions, aliases made by plain assignment and calls
of local functions that read the moved name. Every read of a moved path is a use.
Errors are reported through the checker while it checks that function, so they are
cached, ignored by ``# type: ignore[code]`` and reported by dmypy like mypy's own.

mypy asks the plugin for a signature hook for every function and method full name it
calls. The plugin claims each name whose declared signature involves ownership (a
``Consumed`` parameter, a ``Transfer`` or lend result, ``Transfer.wait``) or that it
cannot look up, and leaves all others to the next plugin. mypy uses only the first
plugin that claims a name, so for the names it claims this plugin forwards the call to
the hook that the plugins listed after it (and mypy's default plugin) would have used,
then runs its own checks on the original signature. A plugin listed *before* it that
claims such a name hides those calls from it: list ``numbaxfer.mypy_plugin`` first.

Any failure inside the plugin degrades to "no check" for that call; it never aborts
mypy (set ``NUMBAXFER_MYPY_PLUGIN_DEBUG=1`` to raise instead). mypy older than 1.16 is
refused with a message. This file imports nothing from numbaxfer at run time: it is
self-contained, so the incremental cache sees every change to it.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Final, TypeAlias

from mypy.errorcodes import ErrorCode
from mypy.nodes import (
    ARG_NAMED,
    ARG_NAMED_OPT,
    ARG_OPT,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
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
    MypyFile,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    PassStmt,
    RaiseStmt,
    ReturnStmt,
    RevealExpr,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    Statement,
    StrExpr,
    TempNode,
    TryStmt,
    TupleExpr,
    TypeApplication,
    TypeInfo,
    UnaryExpr,
    Var,
    WhileStmt,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)
from mypy.options import Options
from mypy.patterns import (
    AsPattern,
    ClassPattern,
    MappingPattern,
    OrPattern,
    Pattern,
    SequencePattern,
    StarredPattern,
    ValuePattern,
)
from mypy.plugin import (
    FunctionSigContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import (
    CallableType,
    FunctionLike,
    Instance,
    NoneType,
    Overloaded,
    Type,
    TypeAliasType,
    UninhabitedType,
    get_proper_type,
)

__all__ = [
    "LEND_ESCAPE",
    "TRANSFER_COMPLETED_TWICE",
    "UNFINISHED_TRANSFER",
    "USE_AFTER_TRANSFER",
    "NumbaxferPlugin",
    "plugin",
]

#: Bump when the plugin's behaviour changes: part of the incremental cache key.
PLUGIN_VERSION: Final = "2"
MIN_MYPY: Final = (1, 16)

CONSUMED: Final = "numbaxfer._ownership.Consumed"
TRANSFER: Final = "numbaxfer._transfer.Transfer"
TRANSFER_WAIT: Final = "numbaxfer._transfer.Transfer.wait"
#: Calling a functools.partial: mypy's functools plugin keeps the partially applied
#: signature on the partial's type, which is what the call does.
PARTIAL_CALL: Final = "functools.partial.__call__"
LEND_SCOPE: Final = "numbaxfer._ownership.LendScope"
#: Handles whose metadata (shape, dtype, ...) may be read in any state.
HANDLES: Final = frozenset(
    {"numbaxfer._host.PinnedArray", "numbaxfer._device.DeviceArray", "numbaxfer._stream.Stream"}
)
METADATA: Final = frozenset({"shape", "dtype", "size", "nbytes", "ndim", "label", "closed"})
#: Reads of a transfer that neither complete it nor hand it on.
TRANSFER_NEUTRAL: Final = frozenset({"done", "label", "completed"})

_CATEGORY: Final = "numbaxfer"
USE_AFTER_TRANSFER: Final = ErrorCode(
    "use-after-transfer",
    "A buffer moved into a consuming call (a transfer) is used before it is rebound",
    _CATEGORY,
)
UNFINISHED_TRANSFER: Final = ErrorCode(
    "unfinished-transfer",
    "A transfer is discarded, dropped, or never completed with wait()",
    _CATEGORY,
)
TRANSFER_COMPLETED_TWICE: Final = ErrorCode(
    "transfer-completed-twice", "wait() on a transfer that was already completed", _CATEGORY
)
LEND_ESCAPE: Final = ErrorCode(
    "lend-escape", "A lent handle is used after its `with ... lend()` block", _CATEGORY
)

_DEBUG_ENV: Final = "NUMBAXFER_MYPY_PLUGIN_DEBUG"
_MAX_LOOP_ITERATIONS: Final = 32
_MAX_SCOPES: Final = 128
_MAX_ALIASES: Final = 256
#: Seconds of analysis one function body (or module top level) may take in all; past
#: that, later calls in it are not re-analysed (see docs/static-checker.md).
_SCOPE_BUDGET_S: Final = 5.0

# --------------------------------------------------------------------------------------
# Abstract values
#
# The state maps a *path* (``host``, ``self.buf``, ``bufs[0]``, ``bufs[$i]``) to a set of
# atoms, one per way the value may have arrived here; a path that is absent holds
# ``{OWN}``: usable. Atoms are (kind, fact id, extra):
#   O  usable                          M  moved by fact
#   P  pending transfer from fact      E  transfer handed on (escaped: not ours to check)
#   W  transfer completed (extra: line of the wait)
#   X  lent handle whose block ended (fact: the lend call)
# --------------------------------------------------------------------------------------

Atom: TypeAlias = tuple[str, int, int]
Atoms: TypeAlias = frozenset[Atom]
_OWN: Final[Atom] = ("O", -1, 0)
_OWN_SET: Final[Atoms] = frozenset({_OWN})
_TRANSFER_KINDS: Final = frozenset({"P", "W", "E"})
Chain: TypeAlias = list[tuple[str, Expression]]
PosKey: TypeAlias = tuple[int, int, int, int]
_Message: TypeAlias = "tuple[ErrorCode, Context, str, tuple[object, ...]]"


class _State:
    """Abstract state at one program point (mutable; copy before branching)."""

    __slots__ = ("alias", "vals")

    def __init__(
        self,
        vals: dict[str, Atoms] | None = None,
        alias: dict[str, dict[str, bool]] | None = None,
    ) -> None:
        self.vals: dict[str, Atoms] = vals if vals is not None else {}
        #: name -> {path it was copied from: True if on every path}
        self.alias: dict[str, dict[str, bool]] = alias if alias is not None else {}

    def copy(self) -> _State:
        return _State(dict(self.vals), {k: dict(v) for k, v in self.alias.items()})

    def get(self, key: str) -> Atoms:
        return self.vals.get(key, _OWN_SET)

    def put(self, key: str, atoms: Atoms) -> None:
        if atoms == _OWN_SET:
            self.vals.pop(key, None)
        else:
            self.vals[key] = atoms

    def same(self, other: _State) -> bool:
        return self.vals == other.vals and self.alias == other.alias


def _join(*states: _State | None) -> _State | None:
    live = [s for s in states if s is not None]
    if not live:
        return None
    if len(live) == 1:
        return live[0].copy()
    keys: set[str] = set()
    names: set[str] = set()
    for s in live:
        keys.update(s.vals)
        names.update(s.alias)
    vals: dict[str, Atoms] = {}
    for k in sorted(keys):
        acc: set[Atom] = set()
        for s in live:
            acc.update(s.vals.get(k, _OWN_SET))
        if acc != _OWN_SET:
            vals[k] = frozenset(acc)
    alias: dict[str, dict[str, bool]] = {}
    for n in sorted(names):
        targets: set[str] = set()
        for s in live:
            targets.update(s.alias.get(n, {}))
        merged: dict[str, bool] = {}
        for t in sorted(targets):
            merged[t] = all(s.alias.get(n, {}).get(t, False) for s in live)
        alias[n] = merged
    return _State(vals, alias)


# --------------------------------------------------------------------------------------
# Paths
# --------------------------------------------------------------------------------------


def _path_chain(e: Expression) -> Chain | None:
    """``self.bufs[0]`` -> [("self", e1), ("self.bufs", e2), ("self.bufs[0]", e)]."""
    if isinstance(e, NameExpr):
        return [(e.name, e)]
    if isinstance(e, MemberExpr):
        base = _path_chain(e.expr)
        if base is None:
            return None
        base.append((base[-1][0] + "." + e.name, e))
        return base
    if isinstance(e, IndexExpr):
        idx = _index_key(e.index)
        if idx is None:
            return None
        base = _path_chain(e.base)
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


def _root(key: str) -> str:
    for i, ch in enumerate(key):
        if ch in ".[":
            return key[:i]
    return key


def _extends(key: str, prefix: str) -> bool:
    return len(key) > len(prefix) and key.startswith(prefix) and key[len(prefix)] in ".["


def _depends_on_name(key: str, name: str) -> bool:
    """Does the value at ``key`` stop being the same when ``name`` is rebound?"""
    return _root(key) == name or ("[$" in key and name in _INDEX_NAME.findall(key))


def _display(key: str) -> str:
    return key.replace("[$", "[")


def _prefixes(key: str) -> Iterator[str]:
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


def _pos(n: Context) -> PosKey:
    return (n.line, n.column, n.end_line or -1, n.end_column or -1)


# --------------------------------------------------------------------------------------
# Facts: what a call does, from the plugin hook (confirmed) or from resolving the
# callee through semantic analysis (predicted; used to word, never to report)
# --------------------------------------------------------------------------------------


class _Fact:
    __slots__ = (
        "callee",
        "confirmed",
        "consumed",
        "end",
        "handles",
        "id",
        "lend",
        "line",
        "noreturn",
        "producer",
        "wait",
    )

    def __init__(self, call: CallExpr, callee: str, confirmed: bool) -> None:
        self.id = -1
        self.line = call.line
        #: Where the call ends: a move takes effect there.
        self.end = (call.end_line or call.line, call.end_column or call.column)
        self.callee = callee
        self.confirmed = confirmed
        #: Indices into CallExpr.args of the arguments that move.
        self.consumed: tuple[int, ...] = ()
        #: True if every consuming parameter takes a numbaxfer handle (metadata readable).
        self.handles = True
        self.producer = False
        self.lend = False
        self.wait = False
        self.noreturn = False

    def relevant(self) -> bool:
        return bool(self.consumed) or self.producer or self.lend or self.wait

    def signature(self) -> tuple[object, ...]:
        return (self.consumed, self.handles, self.producer, self.lend, self.wait, self.noreturn)


def _consumed_alias(t: Type) -> TypeAliasType | None:
    """The ``Consumed[...]`` behind ``t``, also through aliases of it (``Buf: TypeAlias =
    nx.Consumed[Host]``, ``Buf = TypeAliasType("Buf", nx.Consumed[Host])``)."""
    for _ in range(8):  # aliases of aliases
        if not isinstance(t, TypeAliasType) or t.alias is None:
            return None
        if t.alias.fullname == CONSUMED:
            return t
        t = t.alias.target
    return None


def _is_consumed(t: Type) -> bool:
    return _consumed_alias(t) is not None


def _first_attr(rest: str) -> str:
    """``shape`` of ``shape[0]`` and of ``dtype.itemsize``'s ``dtype``: what a read of
    metadata starts with (metadata of metadata touches no memory either)."""
    for i, ch in enumerate(rest):
        if ch in ".[":
            return rest[:i]
    return rest


def _is_handle(t: Type) -> bool:
    alias = _consumed_alias(t)
    if alias is not None and alias.args:
        t = alias.args[0]
    p = get_proper_type(t)
    # Subclasses count (MappedArray is a PinnedArray); so do transfers handed on to a
    # chained transfer or a pool: reading their metadata afterwards touches no memory.
    return isinstance(p, Instance) and any(
        b.fullname in HANDLES or b.fullname == TRANSFER for b in p.type.mro
    )


def _is_transfer(t: Type | None) -> bool:
    """A Transfer[X] with X not None (a declared or already inferred type)."""
    if t is None:
        return False
    p = get_proper_type(t)
    if isinstance(p, Instance) and p.type.fullname == TRANSFER:
        return not (p.args and isinstance(get_proper_type(p.args[0]), NoneType))
    return False


def _ret_kind(t: Type) -> str:
    """'producer' for Transfer[X] with X not None, 'lend', 'noreturn' or ''."""
    p = get_proper_type(t)
    if isinstance(p, Instance):
        name = p.type.fullname
        if name == TRANSFER:
            if p.args and isinstance(get_proper_type(p.args[0]), NoneType):
                return ""
            return "producer"
        if name == LEND_SCOPE:
            return "lend"
    elif isinstance(p, UninhabitedType):
        return "noreturn"
    return ""


def _signature_matters(t: Type) -> bool:
    p = get_proper_type(t)
    if isinstance(p, Overloaded):
        return any(_signature_matters(item) for item in p.items)
    if not isinstance(p, CallableType):
        return True  # not a plain signature: look at the calls
    return _ret_kind(p.ret_type) in ("producer", "lend") or any(
        _is_consumed(a) for a in p.arg_types
    )


def _declared_types(node: Node) -> tuple[Type | None, ...]:
    """The declared signature(s) behind a callee symbol (None: not known yet)."""
    if isinstance(node, TypeInfo):
        out: list[Type | None] = []
        for name in ("__init__", "__new__", "__call__"):
            method = node.get_method(name)
            if method is not None:
                out.extend(_declared_types(method))
        return tuple(out)
    if isinstance(node, Decorator):
        return (node.var.type, node.func.type)
    if isinstance(node, OverloadedFuncDef):
        return (node.type,)
    if isinstance(node, FuncDef):
        return (node.type,) if node.type is not None else ()
    if isinstance(node, Var):
        return (node.type,)
    return (None,)


def _short_name(fullname: str, is_method: bool) -> str:
    parts = fullname.split(".")
    return ".".join(parts[-2:]) if is_method and len(parts) >= 2 else parts[-1]


_WAIT_SIGNATURE: Final[tuple[object, ...]] = ((), True, False, False, True, False)


def _fact_from_signature(
    call: CallExpr,
    arg_types: Sequence[Type],
    ret_type: Type,
    formal_actuals: Sequence[Sequence[int]],
    callee: str,
    confirmed: bool,
    is_wait: bool,
) -> _Fact:
    fact = _Fact(call, callee, confirmed)
    consumed: list[int] = []
    for i, t in enumerate(arg_types):
        if i < len(formal_actuals) and _is_consumed(t):
            consumed.extend(formal_actuals[i])
            if not _is_handle(t):
                fact.handles = False
    fact.consumed = tuple(sorted(set(consumed)))
    kind = _ret_kind(ret_type)
    fact.producer = kind == "producer"
    fact.lend = kind == "lend"
    fact.noreturn = kind == "noreturn"
    fact.wait = is_wait
    return fact


def _map_actuals(call: CallExpr, sig: CallableType, skip_self: bool) -> list[list[int]] | None:
    """A simple actual-to-formal mapping (None where star arguments make it unsure)."""
    kinds = list(sig.arg_kinds)
    names = list(sig.arg_names)
    if skip_self:
        kinds, names = kinds[1:], names[1:]
    out: list[list[int]] = [[] for _ in kinds]
    pos = 0
    for i, (ak, an) in enumerate(zip(call.arg_kinds, call.arg_names, strict=True)):
        if ak in (ARG_STAR, ARG_STAR2):
            return None
        if an is None:
            while pos < len(kinds) and kinds[pos] not in (ARG_POS, ARG_OPT, ARG_STAR):
                pos += 1
            if pos >= len(kinds):
                return None
            out[pos].append(i)
            if kinds[pos] != ARG_STAR:
                pos += 1
        else:
            for j, fn in enumerate(names):
                if fn == an and kinds[j] in (ARG_POS, ARG_OPT, ARG_NAMED, ARG_NAMED_OPT):
                    out[j].append(i)
                    break
            else:
                for j, k in enumerate(kinds):
                    if k == ARG_STAR2:
                        out[j].append(i)
                        break
    return out


def _node_callable(node: Node | None) -> tuple[CallableType | None, bool]:
    """The signature of a function-like symbol, and whether it is a plain function."""
    if isinstance(node, Decorator):
        t = node.var.type
        p = get_proper_type(t) if t is not None else None
        return (p if isinstance(p, CallableType) else None), False
    if isinstance(node, (FuncDef, OverloadedFuncDef)):
        t = node.type
        if isinstance(t, CallableType):
            return t, True
        if isinstance(t, Overloaded) and t.items:
            return t.items[0], True
    return None, False


def _static_type(e: Expression) -> Type | None:
    """The declared or already inferred type of a simple expression, if known."""
    if isinstance(e, NameExpr) and isinstance(e.node, Var):
        return e.node.type
    if isinstance(e, MemberExpr):
        base = _static_type(e.expr)
        p = get_proper_type(base) if base is not None else None
        if isinstance(p, Instance):
            sym = p.type.get(e.name)
            if sym is not None and isinstance(sym.node, Var):
                return sym.node.type
    return None


_UNKNOWN: Final = "unknown"
InferInfo: TypeAlias = Callable[[str], TypeInfo | None]


def _receiver_info(e: Expression, infer: InferInfo) -> TypeInfo | str | None:
    """The class of a method call's receiver: from mypy where it has inferred it already,
    else from the analysis' own record of ``name = f(...)``; _UNKNOWN if not known yet."""
    t = _static_type(e)
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, Instance):
        return p.type
    if p is not None:
        return None  # known, and not a class instance
    if isinstance(e, NameExpr):
        info = infer(e.name)
        if info is not None:
            return info
        if isinstance(e.node, Var) and e.node.type is None:
            return _UNKNOWN
    return None


def _result_info(call: CallExpr, infer: InferInfo) -> TypeInfo | None:
    """The class a call returns, as far as its declared signature says."""
    callee = call.callee
    sig: CallableType | None = None
    if isinstance(callee, (NameExpr, MemberExpr)) and callee.node is not None:
        if isinstance(callee.node, TypeInfo):
            return callee.node
        sig = _node_callable(callee.node)[0]
    elif isinstance(callee, MemberExpr):
        info = _receiver_info(callee.expr, infer)
        if isinstance(info, TypeInfo):
            sig = _node_callable(info.get_method(callee.name))[0]
    ret = get_proper_type(sig.ret_type) if sig is not None else None
    return ret.type if isinstance(ret, Instance) else None


def _predict(call: CallExpr, infer: InferInfo) -> _Fact | str | None:
    """What a call not yet checked by mypy will do, from the declared signature of its
    callee (None: nothing of interest; _UNKNOWN: its receiver's type is not known yet)."""
    callee = call.callee
    sig: CallableType | None = None
    skip_self = False
    name = ""
    if isinstance(callee, (NameExpr, MemberExpr)) and callee.node is not None:
        node = callee.node
        if isinstance(node, TypeInfo):
            return None
        sig, _plain = _node_callable(node)
        name = _short_name(callee.fullname or callee.name, False)
    elif isinstance(callee, MemberExpr):
        info = _receiver_info(callee.expr, infer)
        if isinstance(info, str):
            return _UNKNOWN
        if info is not None:
            method = info.get_method(callee.name)
            sig, plain = _node_callable(method)
            is_static = isinstance(method, FuncDef) and method.is_static
            skip_self = plain and not is_static
            name = f"{info.name}.{callee.name}"
            if sig is not None and f"{info.fullname}.{callee.name}" == TRANSFER_WAIT:
                fact = _Fact(call, name, False)
                fact.wait = True
                return fact
    if sig is None:
        return None
    if not _signature_matters(sig) and _ret_kind(sig.ret_type) != "noreturn":
        return None  # the common case: nothing to predict
    actuals = _map_actuals(call, sig, skip_self)
    if actuals is None:
        return None
    arg_types = sig.arg_types[1:] if skip_self else sig.arg_types
    return _fact_from_signature(call, arg_types, sig.ret_type, actuals, name, False, False)


# --------------------------------------------------------------------------------------
# Syntactic helpers: children of a node, names bound and read by nested functions
# --------------------------------------------------------------------------------------


_LEAVES: Final = frozenset(
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


def _children(n: Node) -> list[Node]:
    """Direct sub-nodes of a statement, expression or pattern (what we need of them)."""
    if type(n) in _LEAVES:
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


def _target_names(lv: Expression, out: set[str]) -> None:
    if isinstance(lv, NameExpr):
        out.add(lv.name)
    elif isinstance(lv, (TupleExpr, ListExpr)):
        for item in lv.items:
            _target_names(item, out)
    elif isinstance(lv, StarExpr):
        _target_names(lv.expr, out)


def _bound_names(body: Node) -> set[str]:
    """Names a function body binds (its locals), not looking into nested functions."""
    out, declared = _bindings(body)
    return out - declared


def _shared_writes(fn: FuncItem) -> set[str]:
    """Names of enclosing scopes that ``fn`` rebinds (``nonlocal x`` / ``global x``)."""
    out, declared = _bindings(fn.body)
    return out & declared


def _bindings(body: Node) -> tuple[set[str], set[str]]:
    """Names a body binds, and those it declares ``global``/``nonlocal``."""
    out: set[str] = set()
    declared: set[str] = set()
    todo: list[Node] = [body]
    while todo:
        n = todo.pop()
        if isinstance(n, AssignmentStmt):
            for lv in n.lvalues:
                _target_names(lv, out)
        elif isinstance(n, OperatorAssignmentStmt):
            _target_names(n.lvalue, out)
        elif isinstance(n, ForStmt):
            _target_names(n.index, out)
        elif isinstance(n, WithStmt):
            for t in n.target:
                if t is not None:
                    _target_names(t, out)
        elif isinstance(n, TryStmt):
            out.update(v.name for v in n.vars if v is not None)
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
        todo.extend(_children(n))
    return out, declared


def _free_reads(fn: FuncItem) -> set[str]:
    """Path keys that ``fn`` (and functions nested in it) reads from enclosing scopes."""
    local = _bound_names(fn.body)
    local.update(a.variable.name for a in fn.arguments)
    reads: set[str] = set()
    todo: list[Node] = [fn.body]
    while todo:
        n = todo.pop()
        if isinstance(n, (NameExpr, MemberExpr, IndexExpr)):
            chain = _path_chain(n)
            if chain is not None:
                if _root(chain[-1][0]) not in local:
                    reads.add(chain[-1][0])
                if isinstance(n, IndexExpr):
                    todo.append(n.index)
                continue
        if isinstance(n, FuncItem) and n is not fn:
            reads.update(r for r in _free_reads(n) if _root(r) not in local)
            continue
        if isinstance(n, AssignmentStmt):
            todo.append(n.rvalue)
            for lv in n.lvalues:
                if isinstance(lv, MemberExpr):
                    todo.append(lv.expr)
                elif isinstance(lv, IndexExpr):
                    todo.extend((lv.base, lv.index))
            continue
        todo.extend(_children(n))
    return reads


def _sub_blocks(n: Node) -> list[Block]:
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


def _nested_functions(body: Sequence[Statement]) -> Iterator[tuple[str | None, FuncItem]]:
    """Functions defined by statements of a scope (not inside nested functions), and
    lambdas assigned to names. Lambdas inside other expressions are met by the analysis.
    """
    todo: list[Node] = list(body)
    while todo:
        n = todo.pop()
        if isinstance(n, Decorator):
            yield n.name, n.func
        elif isinstance(n, FuncDef):
            yield n.name, n
        elif isinstance(n, OverloadedFuncDef):
            for item in n.items:
                if isinstance(item, Decorator):
                    yield None, item.func
            if n.impl is not None:
                impl = n.impl.func if isinstance(n.impl, Decorator) else n.impl
                yield n.name, impl
        elif isinstance(n, AssignmentStmt) and isinstance(n.rvalue, LambdaExpr):
            for lv in n.lvalues:
                if isinstance(lv, NameExpr):
                    yield lv.name, n.rvalue
            yield None, n.rvalue
        elif isinstance(n, ClassDef):
            for m in _nested_functions(n.defs.body):
                yield None, m[1]
        else:
            for b in _sub_blocks(n):
                todo.extend(b.body)


def _none_test(cond: Expression, st: _State) -> tuple[str, bool] | None:
    """``X is None`` -> (X, True); ``X is not None`` -> (X, False); a bare ``X`` that
    holds a transfer (Transfer has no __bool__ or __len__: falsy only if None) -> (X,
    False). The bool is the value of ``cond`` for which X is None."""
    if isinstance(cond, ComparisonExpr) and len(cond.operators) == 1:
        op = cond.operators[0]
        left, right = cond.operands
        if op in ("is", "is not"):
            for x, y in ((left, right), (right, left)):
                if isinstance(y, NameExpr) and y.fullname == "builtins.None":
                    chain = _path_chain(x)
                    if chain is not None:
                        return chain[-1][0], op == "is"
        return None
    chain = _path_chain(cond)
    if chain is not None:
        atoms = st.vals.get(chain[-1][0])
        if atoms and all(a[0] in "OPEW" for a in atoms) and any(a[0] != "O" for a in atoms):
            return chain[-1][0], False
    return None


def _catches_all(t: Expression | None) -> bool:
    if t is None:
        return True
    if isinstance(t, NameExpr | MemberExpr):
        return t.fullname in ("builtins.Exception", "builtins.BaseException")
    if isinstance(t, TupleExpr):
        return any(_catches_all(i) for i in t.items)
    return False


def _literal_truth(e: Expression) -> bool | None:
    if isinstance(e, IntExpr):
        return bool(e.value)
    if isinstance(e, NameExpr) and e.fullname in ("builtins.True", "builtins.False"):
        return e.fullname == "builtins.True"
    return None


# --------------------------------------------------------------------------------------
# Per-scope bookkeeping
# --------------------------------------------------------------------------------------


class _Scope:
    """One function body (or module top level) while mypy checks it."""

    __slots__ = (
        "analysis",
        "binder",
        "body",
        "confirmed",
        "facts",
        "local_funcs",
        "nested_reads",
        "node",
        "pending",
        "predicted",
        "reported",
        "shared",
        "spent",
        "writes",
    )

    def __init__(self, binder: object, node: Node, body: list[Statement]) -> None:
        self.binder = binder
        self.node = node
        self.body = body
        self.facts: list[_Fact] = []
        self.confirmed: dict[PosKey, _Fact] = {}
        self.predicted: dict[PosKey, _Fact | None] = {}
        self.reported: set[tuple[object, ...]] = set()
        self.pending: list[_Message] = []
        self.analysis: _Analysis | None = None
        self.spent = 0.0
        funcs: dict[str, set[str]] = {}
        writes: dict[str, set[str]] = {}
        reads: set[str] = set()
        for name, fn in _nested_functions(body):
            free = _free_reads(fn)
            reads.update(_root(r) for r in free)
            if name is not None:
                funcs.setdefault(name, set()).update(free)
                writes.setdefault(name, set()).update(_shared_writes(fn))
        # A local function calling another one reads (and rebinds) what that one does.
        for _ in range(len(funcs)):
            changed = False
            for name, free in funcs.items():
                for other in [r for r in free if r in funcs and r != name]:
                    extra = funcs[other] - free
                    if extra:
                        free.update(extra)
                        changed = True
                    more = writes[other] - writes[name]
                    if more:
                        writes[name].update(more)
                        changed = True
            if not changed:
                break
        #: local function -> names of this scope it rebinds (nonlocal/global): a call of
        #: it rebinds them (``nonlocal host; host = up.wait()``). Where the rebinding is
        #: conditional in the callee this assumes it happened: silence, not a report.
        self.writes: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in writes.items() if v}
        #: Names this function declares global/nonlocal: a transfer bound to one is held
        #: by the other scope (completed there), so it is handed on, not leaked.
        self.shared = (
            frozenset(_bindings(node.body)[1]) if isinstance(node, FuncItem) else frozenset()
        )
        self.local_funcs: dict[str, frozenset[str]] = {
            k: frozenset(r for r in v if r not in funcs) for k, v in funcs.items()
        }
        #: Roots that nested scopes read: a transfer bound to one escapes.
        self.nested_reads = frozenset(reads)

    def add(self, fact: _Fact) -> _Fact:
        fact.id = len(self.facts)
        self.facts.append(fact)
        return fact

    def fact_for(self, call: CallExpr, infer: InferInfo) -> _Fact | None:
        key = _pos(call)
        fact = self.confirmed.get(key)
        if fact is not None:
            return fact
        if key in self.predicted:
            return self.predicted[key]
        pred = _predict(call, infer)
        if isinstance(pred, str):
            return None  # not known yet: try again in the next analysis
        self.predicted[key] = (
            self.add(pred) if pred is not None and (pred.relevant() or pred.noreturn) else None
        )
        return self.predicted[key]


# --------------------------------------------------------------------------------------
# The data-flow analysis of one scope
# --------------------------------------------------------------------------------------


class _Ctx:
    __slots__ = ("breaks", "conts", "exc", "expires", "finally_body", "kind")

    def __init__(self, kind: str) -> None:
        self.kind = kind  # "loop", "try", "with", "finally"
        self.breaks: list[_State] = []
        self.conts: list[_State] = []
        self.exc: _State | None = None
        self.expires: list[tuple[str, int]] = []
        self.finally_body: Block | None = None


class _Event:
    __slots__ = ("atoms", "extra", "kind", "node", "path")

    def __init__(self, kind: str, node: Context, path: str, atoms: Atoms, extra: str) -> None:
        self.kind = kind
        self.node = node
        self.path = path
        self.atoms = atoms
        self.extra = extra


class _Analysis:
    def __init__(self, scope: _Scope) -> None:
        self.scope = scope
        self.events: dict[tuple[str, int, str], _Event] = {}
        self.stack: list[_Ctx] = []
        self.n_try = 0
        self.exits: list[_State] = []
        #: producer fact id -> (bound name, the name node)
        self.binds: dict[int, tuple[str, NameExpr]] = {}
        #: lend fact id -> (lent name, owner display)
        self.lends: dict[int, tuple[str, str]] = {}
        #: move fact id -> paths it moved
        self.moved: dict[int, list[str]] = {}
        #: call position -> the effects (a fact signature) this analysis gave the call
        self.treated: dict[PosKey, tuple[object, ...]] = {}
        #: name -> class of the value last assigned from a call (for predictions)
        self.inferred: dict[str, TypeInfo] = {}
        #: every attribute/index path this analysis has put into a state
        self.compound_keys: set[str] = set()
        #: roots read by lambdas inside expressions: a transfer held there escapes
        self.lambda_reads: set[str] = set()
        self.lambdas_seen: set[int] = set()
        #: transfers that may stop being held by any variable while their buffer stays
        #: moved (handed on or pending, then the variable rebound; or completed into
        #: another name): ``X is None`` proves nothing about their buffers
        self.unpaired: set[int] = set()
        #: the wait()/await being assigned, and the path it is assigned to
        self.wait_target: tuple[Expression, str] | None = None

    # -- driver ----------------------------------------------------------------------
    def run(self) -> None:
        out = self.block(self.scope.body, _State())
        if out is not None:
            self.exits.append(out)
        final = _join(*self.exits)
        if final is None:
            return
        for key, atoms in final.vals.items():
            for a in sorted(atoms):
                if a[0] == "P" and a[1] in self.binds:
                    node = self.binds[a[1]][1]
                    self.event("leak", node, key, atoms, str(a[1]))

    def event(self, kind: str, node: Context, path: str, atoms: Atoms, extra: str = "") -> None:
        key = (kind, id(node), path + "\0" + extra)
        ev = self.events.get(key)
        if ev is None:
            self.events[key] = _Event(kind, node, path, atoms, extra)
        else:
            ev.atoms = ev.atoms | atoms

    # -- statements ------------------------------------------------------------------
    def block(self, stmts: Sequence[Statement], st: _State | None) -> _State | None:
        for s in stmts:
            if st is None:
                return None
            st = self.stmt(s, st)
            if st is not None and self.n_try:
                self.deliver_exc(st)
        return st

    def try_body(self, b: Block, st: _State) -> _State | None:
        """A try block's own statements. An exception raised BY a statement leaves the
        state before it (a refused numbaxfer call moves nothing), which is delivered to
        the handlers before each statement; the state after the last statement reaches
        them only through a later statement, and there is none."""
        if b.is_unreachable:
            return None
        cur: _State | None = st
        for i, stmt in enumerate(b.body):
            if cur is None:
                return None
            cur = self.stmt(stmt, cur)
            if cur is not None and i + 1 < len(b.body):
                self.deliver_exc(cur)
        return cur

    def blk(self, b: Block | None, st: _State | None) -> _State | None:
        if b is None or st is None or b.is_unreachable:
            return None if b is not None and b.is_unreachable else st
        return self.block(b.body, st)

    def stmt(self, s: Statement, st: _State) -> _State | None:
        if isinstance(s, ExpressionStmt):
            e = s.expr
            if isinstance(e, CallExpr):
                fact = self.scope.fact_for(e, self.infer)
                if fact is not None and fact.producer:
                    self.event("discard", e, "", frozenset({("D", fact.id, 0)}))
            return self.ex(e, st)
        if isinstance(s, AssignmentStmt):
            return self.assign(s, st)
        if isinstance(s, IfStmt):
            return self.if_(s, st)
        if isinstance(s, ReturnStmt):
            ret = self.ex(s.expr, st) if s.expr is not None else st
            out = self.through(ret, 0) if ret is not None else None
            if out is not None:
                self.exits.append(out)
            return None
        if isinstance(s, ForStmt):
            return self.for_(s, st)
        if isinstance(s, WithStmt):
            return self.with_(s, st)
        if isinstance(s, WhileStmt):
            return self.while_(s, st)
        if isinstance(s, TryStmt):
            return self.try_(s, st)
        if isinstance(s, OperatorAssignmentStmt):
            aug = self.ex(s.lvalue, st)
            aug = self.ex(s.rvalue, aug) if aug is not None else None
            return self.bind(s.lvalue, ("fresh", None), aug, s) if aug is not None else None
        if isinstance(s, DelStmt):
            return self.delete(s.expr, st)
        if isinstance(s, RaiseStmt):
            r: _State | None = st
            for part in (s.expr, s.from_expr):
                if part is not None and r is not None:
                    r = self.ex(part, r)
            if r is not None:
                self.deliver_exc(r)
            return None
        if isinstance(s, (BreakStmt, ContinueStmt)):
            for i in range(len(self.stack) - 1, -1, -1):
                ctx = self.stack[i]
                if ctx.kind == "loop":
                    out = self.through(st, i + 1)
                    if out is not None:
                        (ctx.breaks if isinstance(s, BreakStmt) else ctx.conts).append(out)
                    break
            return None
        if isinstance(s, AssertStmt):
            r = self.ex(s.expr, st)
            if r is not None and _literal_truth(s.expr) is False:
                if s.msg is not None:
                    r = self.ex(s.msg, r)
                if r is not None:
                    self.deliver_exc(r)
                return None
            return r
        if isinstance(s, MatchStmt):
            return self.match(s, st)
        if isinstance(s, Decorator):
            for d in s.decorators:
                r2 = self.ex(d, st)
                if r2 is None:
                    return None
                st = r2
            return self.rebind(s.name, st, s)
        if isinstance(s, (FuncDef, OverloadedFuncDef)):
            if isinstance(s, FuncDef):
                for a in s.arguments:
                    if a.initializer is not None:
                        r3 = self.ex(a.initializer, st)
                        if r3 is None:
                            return None
                        st = r3
            return self.rebind(s.name, st, s)
        if isinstance(s, ClassDef):
            for e in (*s.decorators, *s.base_type_exprs):
                r4 = self.ex(e, st)
                if r4 is None:
                    return None
                st = r4
            return self.rebind(s.name, st, s)
        if isinstance(s, (Import, ImportFrom)):
            names: set[str] = set()
            if isinstance(s, Import):
                names.update((alias or mod).split(".")[0] for mod, alias in s.ids)
            else:
                names.update(alias or name for name, alias in s.names)
            for nm in names:
                self.rebind(nm, st, s)
            return st
        if isinstance(s, Block):
            return self.blk(s, st)
        return st  # pass, global, nonlocal, import *, type aliases, ...

    def assign(self, s: AssignmentStmt, st: _State) -> _State | None:
        rv = s.rvalue
        if isinstance(rv, TempNode) and rv.no_rhs:
            return st
        self.wait_target = None
        if len(s.lvalues) == 1 and (
            isinstance(rv, AwaitExpr)
            or (isinstance(rv, CallExpr) and isinstance(rv.callee, MemberExpr))
        ):
            target = _path_chain(s.lvalues[0])
            if target is not None:
                self.wait_target = (rv, target[-1][0])
        r = self.ex(rv, st)
        self.wait_target = None
        if r is None:
            return None
        info = self.value_info(rv, r)
        if isinstance(rv, CallExpr) and len(s.lvalues) == 1 and isinstance(s.lvalues[0], NameExpr):
            made = _result_info(rv, self.infer)
            if made is not None:
                self.inferred[s.lvalues[0].name] = made
        for lv in s.lvalues:
            out = self.bind(lv, info, r, s)
            if out is None:
                return None
            r = out
        return r

    def infer(self, name: str) -> TypeInfo | None:
        return self.inferred.get(name)

    def value_info(self, rv: Expression, st: _State) -> tuple[str, object]:
        if isinstance(rv, CallExpr):
            fact = self.scope.fact_for(rv, self.infer)
            if fact is not None and fact.producer:
                return ("producer", fact)
            return ("fresh", None)
        if isinstance(rv, (TupleExpr, ListExpr)) and not any(
            isinstance(i, StarExpr) for i in rv.items
        ):
            return ("tuple", [self.value_info(i, st) for i in rv.items])
        chain = _path_chain(rv)
        if chain is not None:
            key = chain[-1][0]
            return ("copy", (key, st.get(key)))
        return ("fresh", None)

    def bind(
        self, lv: Expression, info: tuple[str, object], st: _State, stmt: Node
    ) -> _State | None:
        if isinstance(lv, NameExpr):
            self.set_value(lv.name, lv, info, st, stmt, is_name=True)
            return st
        if isinstance(lv, (MemberExpr, IndexExpr)):
            if isinstance(lv, MemberExpr):
                r = self.ex(lv.expr, st)
            else:
                r = self.ex(lv.base, st)
                r = self.ex(lv.index, r) if r is not None else None
            if r is None:
                return None
            chain = _path_chain(lv)
            if chain is not None:
                self.set_value(chain[-1][0], lv, info, r, stmt, is_name=False)
            return r
        if isinstance(lv, (TupleExpr, ListExpr)):
            items: list[tuple[str, object]] | None = None
            if info[0] == "tuple" and isinstance(info[1], list) and len(info[1]) == len(lv.items):
                items = info[1]
            r2: _State | None = st
            for i, item in enumerate(lv.items):
                if r2 is None:
                    return None
                r2 = self.bind(item, items[i] if items else ("fresh", None), r2, stmt)
            return r2
        if isinstance(lv, StarExpr):
            return self.bind(lv.expr, ("fresh", None), st, stmt)
        return self.ex(lv, st)

    def set_value(
        self,
        key: str,
        node: Expression,
        info: tuple[str, object],
        st: _State,
        stmt: Node,
        *,
        is_name: bool,
    ) -> None:
        self.rebind(key, st, node)
        if not is_name:
            self.compound_keys.add(key)
        kind, payload = info
        if kind == "producer" and isinstance(payload, _Fact):
            if (
                is_name
                and isinstance(node, NameExpr)
                and key not in self.scope.nested_reads
                and key not in self.scope.shared
            ):
                st.put(key, frozenset({("P", payload.id, 0)}))
                self.binds[payload.id] = (key, node)
            else:
                st.put(key, frozenset({("E", payload.id, 0)}))
        elif kind == "copy" and isinstance(payload, tuple):
            src, atoms = payload
            if src != key:
                st.put(key, atoms)
                if is_name:
                    if len(st.alias) >= _MAX_ALIASES:  # a huge scope: forget the oldest
                        del st.alias[next(iter(st.alias))]
                    st.alias[key] = {src: True}

    def rebind(self, key: str, st: _State, node: Node) -> _State:
        old = st.vals.get(key)
        if old is not None and any(a[0] == "P" for a in old) and isinstance(node, Context):
            self.event("drop", node, key, old)
        is_name = _root(key) == key
        self.lose(st.vals.pop(key, None))
        for k in self.compound_keys:  # only compound paths can extend or depend on key
            if k in st.vals and (_extends(k, key) or (is_name and _depends_on_name(k, key))):
                self.lose(st.vals.pop(k))
        if st.alias:
            st.alias.pop(key, None)
            for name in list(st.alias):
                targets = st.alias[name]
                for t in list(targets):
                    if t == key or _extends(t, key) or (is_name and _depends_on_name(t, key)):
                        del targets[t]
                if not targets:
                    del st.alias[name]
        return st

    def lose(self, atoms: Atoms | None) -> None:
        """A path holding ``atoms`` is rebound: a transfer still pending or handed on there
        is no longer held by it (see ``unpaired``)."""
        if atoms:
            self.unpaired.update(a[1] for a in atoms if a[0] in "PE")

    def delete(self, e: Expression, st: _State) -> _State | None:
        if isinstance(e, (TupleExpr, ListExpr)):
            r: _State | None = st
            for item in e.items:
                r = self.delete(item, r) if r is not None else None
            return r
        if isinstance(e, NameExpr):
            return self.rebind(e.name, st, e)
        r2 = (
            self.ex(e.expr if isinstance(e, MemberExpr) else e.base, st)
            if isinstance(e, (MemberExpr, IndexExpr))
            else self.ex(e, st)
        )
        if r2 is not None and isinstance(e, IndexExpr):
            r2 = self.ex(e.index, r2)
        chain = _path_chain(e)
        if chain is not None and r2 is not None:
            self.rebind(chain[-1][0], r2, e)
        return r2

    def if_(self, s: IfStmt, st: _State) -> _State | None:
        outs: list[_State | None] = []
        cur: _State | None = st
        for cond, body in zip(s.expr, s.body, strict=False):
            if cur is None:
                break
            cur = self.ex(cond, cur)
            if cur is None:
                break
            truth = _literal_truth(cond)
            if truth is not False:
                taken = self.assume(cond, cur.copy(), True)
                outs.append(self.blk(body, taken) if taken is not None else None)
            if truth is True:
                cur = None
            elif cur is not None:
                cur = self.assume(cond, cur, False)
        if cur is not None:
            outs.append(self.blk(s.else_body, cur) if s.else_body is not None else cur)
        return _join(*outs)

    def assume(self, cond: Expression, st: _State, value: bool) -> _State | None:
        """``st`` where ``cond`` is ``value``, or None where that cannot happen. Knows one
        fact: ``t.completed`` is True only after a ``wait()`` of ``t`` (a transfer that
        no path has waited is not completed, and one every path has waited is)."""
        if isinstance(cond, UnaryExpr) and cond.op == "not":
            return self.assume(cond.expr, st, not value)
        if isinstance(cond, MemberExpr) and cond.name == "completed":
            chain = _path_chain(cond.expr)
            atoms = st.vals.get(chain[-1][0]) if chain is not None else None
            if atoms and all(a[0] in (*_TRANSFER_KINDS, "W") for a in atoms):
                waited = {a[0] == "W" for a in atoms}
                if value and waited == {False}:
                    return None  # never waited on any path: not completed
                if not value and waited == {True}:
                    return None  # waited on every path: completed
        test = _none_test(cond, st)
        if test is not None and test[1] == value:
            self.narrow_none(test[0], st)
        return st

    def narrow_none(self, key: str, st: _State) -> None:
        """``key`` is None here, so it holds no transfer. The analysis is not relational:
        a buffer moved by a transfer that ``key`` held on some path stays "maybe moved"
        (``pending = None`` before a loop, ``if pending is not None: buf =
        pending.wait()`` at its top). Where no path can hold that transfer any more, its
        moves are gone as well: the only ways to lose a transfer are completing it into
        the moved buffer (which rebinds it) and the ones ``unpaired`` records, which
        keep the moves."""
        atoms = st.vals.get(key)
        if not atoms or not all(a[0] in "OPEW" for a in atoms):
            return
        st.put(key, _OWN_SET)
        for pid in sorted({a[1] for a in atoms if a[0] == "P"}):
            if pid in self.unpaired or any(
                a[1] == pid and a[0] in _TRANSFER_KINDS for v in st.vals.values() for a in v
            ):
                continue
            gone = ("M", pid, 0)
            for k, v in list(st.vals.items()):
                if gone in v:
                    st.put(k, (v - {gone}) or _OWN_SET)

    def loop(
        self, head_in: _State, body: Callable[[_State, _Ctx], _State | None], ctx: _Ctx
    ) -> _State:
        head = head_in.copy()
        self.stack.append(ctx)
        try:
            for _ in range(_MAX_LOOP_ITERATIONS):
                ctx.breaks = []
                ctx.conts = []
                out = body(head.copy(), ctx)
                new = _join(head, out, *ctx.conts)
                assert new is not None
                if new.same(head):
                    break
                head = new
        finally:
            self.stack.pop()
        return head

    def while_(self, s: WhileStmt, st: _State) -> _State | None:
        truth = _literal_truth(s.expr)
        false_exit: list[_State | None] = [None]

        def body(h: _State, ctx: _Ctx) -> _State | None:
            c = self.ex(s.expr, h)
            if c is None:
                false_exit[0] = None
                return None
            false_exit[0] = None if truth is True else c.copy()
            if truth is False:
                return None
            return self.blk(s.body, c)

        ctx = _Ctx("loop")
        self.loop(st, body, ctx)
        after = false_exit[0]
        if after is not None and s.else_body is not None:
            after = self.blk(s.else_body, after)
        return _join(after, *ctx.breaks)

    def for_(self, s: ForStmt, st: _State) -> _State | None:
        r = self.ex(s.expr, st)
        if r is None:
            return None

        def body(h: _State, ctx: _Ctx) -> _State | None:
            b = self.bind(s.index, ("fresh", None), h, s)
            return self.blk(s.body, b) if b is not None else None

        ctx = _Ctx("loop")
        head = self.loop(r, body, ctx)
        after: _State | None = head
        if s.else_body is not None:
            after = self.blk(s.else_body, head.copy())
        return _join(after, *ctx.breaks)

    def with_(self, s: WithStmt, st: _State) -> _State | None:
        ctx = _Ctx("with")
        cur: _State | None = st
        for e, t in zip(s.expr, s.target, strict=False):
            if cur is None:
                return None
            cur = self.ex(e, cur)
            if cur is None:
                return None
            fact = self.scope.fact_for(e, self.infer) if isinstance(e, CallExpr) else None
            if t is not None:
                cur = self.bind(t, ("fresh", None), cur, s)
                if cur is None:
                    return None
                if fact is not None and fact.lend and isinstance(t, NameExpr):
                    ctx.expires.append((t.name, fact.id))
                    owner = ""
                    if isinstance(e, CallExpr) and isinstance(e.callee, MemberExpr):
                        chain = _path_chain(e.callee.expr)
                        owner = _display(chain[-1][0]) if chain else ""
                    self.lends[fact.id] = (t.name, owner)
        if cur is None:
            return None
        self.stack.append(ctx)
        try:
            out = self.blk(s.body, cur)
        finally:
            self.stack.pop()
        return self.transform(ctx, out) if out is not None else None

    def try_(self, s: TryStmt, st: _State) -> _State | None:
        fin: _Ctx | None = None
        if s.finally_body is not None:
            fin = _Ctx("finally")
            fin.finally_body = s.finally_body
            self.stack.append(fin)
        try:
            tctx = _Ctx("try")
            self.stack.append(tctx)
            self.n_try += 1
            try:
                self.deliver_exc(st)
                body_out = self.try_body(s.body, st.copy())
            finally:
                self.n_try -= 1
                self.stack.pop()
            exc = tctx.exc
            outs: list[_State | None] = []
            caught_all = False
            for typ, var, handler in zip(s.types, s.vars, s.handlers, strict=False):
                if exc is None:
                    break
                h: _State | None = exc.copy()
                if typ is not None and h is not None:
                    h = self.ex(typ, h)
                if var is not None and h is not None:
                    h = self.bind(var, ("fresh", None), h, s)
                outs.append(self.blk(handler, h))
                caught_all = caught_all or _catches_all(typ)
            if body_out is not None and s.else_body is not None:
                body_out = self.blk(s.else_body, body_out)
            outs.append(body_out)
            normal = _join(*outs)
            propagating = None if caught_all else exc
        finally:
            if fin is not None:
                self.stack.pop()
        if s.finally_body is None:
            if propagating is not None:
                self.deliver_exc(propagating)
            return normal
        if propagating is not None:
            fin_exc = self.blk(s.finally_body, _join(normal, propagating))
            if fin_exc is not None:
                self.deliver_exc(fin_exc)
        return self.blk(s.finally_body, normal) if normal is not None else None

    def match(self, s: MatchStmt, st: _State) -> _State | None:
        cur = self.ex(s.subject, st)
        outs: list[_State | None] = []
        for pattern, guard, body in zip(s.patterns, s.guards, s.bodies, strict=False):
            if cur is None:
                break
            c: _State | None = self.pattern(pattern, cur.copy(), s)
            if c is not None and guard is not None:
                c = self.ex(guard, c)
            if c is None:
                continue
            outs.append(self.blk(body, c.copy()))
            irrefutable = (
                guard is None and isinstance(pattern, AsPattern) and (pattern.pattern is None)
            )
            cur = None if irrefutable else _join(cur, c)
        outs.append(cur)
        return _join(*outs)

    def pattern(self, p: Pattern, st: _State, stmt: Node) -> _State | None:
        r: _State | None = st
        if isinstance(p, ValuePattern):
            return self.ex(p.expr, st)
        if isinstance(p, ClassPattern):
            r = self.ex(p.class_ref, st)
        if isinstance(p, MappingPattern):
            for k in p.keys:
                r = self.ex(k, r) if r is not None else None
        for child in _children(p):
            if r is None:
                return None
            if isinstance(child, Pattern):
                r = self.pattern(child, r, stmt)
            elif isinstance(child, NameExpr) and not isinstance(p, ClassPattern):
                r = self.rebind(child.name, r, child)
        return r

    # -- non-local control flow ------------------------------------------------------
    def transform(self, ctx: _Ctx, st: _State) -> _State | None:
        if ctx.kind == "with":
            for name, fact_id in ctx.expires:
                self.invalidate(name, frozenset({("X", fact_id, 0)}), st)
            return st
        if ctx.kind == "finally" and ctx.finally_body is not None:
            idx = self.stack.index(ctx)
            saved = self.stack[idx:]
            del self.stack[idx:]
            saved_try = self.n_try
            self.n_try = sum(1 for c in self.stack if c.kind == "try")
            try:
                return self.blk(ctx.finally_body, st.copy())
            finally:
                self.stack.extend(saved)
                self.n_try = saved_try
        return st

    def through(self, st: _State, depth: int) -> _State | None:
        """Leave every context above ``depth`` (innermost first)."""
        cur: _State | None = st.copy()
        for ctx in reversed(self.stack[depth:]):
            if cur is None:
                return None
            cur = self.transform(ctx, cur)
        return cur

    def deliver_exc(self, st: _State) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            ctx = self.stack[i]
            if ctx.kind == "try":
                cur = st.copy()
                for inner in self.stack[i + 1 :]:
                    if inner.kind == "with":
                        self.transform(inner, cur)
                # Leaks on exceptional paths are not reported: treat pending transfers
                # as handed on there.
                for key, atoms in list(cur.vals.items()):
                    if any(a[0] == "P" for a in atoms):
                        cur.vals[key] = frozenset(
                            ("E", a[1], 0) if a[0] == "P" else a for a in atoms
                        )
                ctx.exc = _join(ctx.exc, cur)
                return

    # -- expressions -----------------------------------------------------------------
    def ex(self, e: Expression, st: _State) -> _State | None:
        if type(e) in _LEAVES and not isinstance(e, NameExpr):
            return st
        if isinstance(e, NameExpr):
            self.read([(e.name, e)], st)
            return st
        if isinstance(e, MemberExpr):
            chain = _path_chain(e)
            if chain is not None:
                self.read(chain, st)
                return st
            return self.ex(e.expr, st)
        if isinstance(e, CallExpr):
            return self.call(e, st)
        if isinstance(e, AwaitExpr):
            return self.await_(e, st)
        none_test = _none_test(e, st) if isinstance(e, ComparisonExpr) else None
        if isinstance(e, ComparisonExpr) and none_test is not None:
            for x in e.operands:
                chain = _path_chain(x)
                if chain is not None and chain[-1][0] == none_test[0]:
                    # comparing with None reads no memory and hands nothing on
                    self.read(chain, st, escape=False)
            return st
        if isinstance(e, IndexExpr):
            chain = _path_chain(e)
            r = self.ex(e.base, st) if chain is None else st
            if r is not None:
                r = self.ex(e.index, r)
            if chain is not None and r is not None:
                self.read(chain, r)
            return r
        if isinstance(e, OpExpr):
            left = self.ex(e.left, st)
            if left is None:
                return None
            if e.op in ("and", "or"):
                right = self.ex(e.right, left.copy())
                return _join(left, right)
            return self.ex(e.right, left)
        if isinstance(e, ConditionalExpr):
            c = self.ex(e.cond, st)
            if c is None:
                return None
            return _join(self.ex(e.if_expr, c.copy()), self.ex(e.else_expr, c))
        if isinstance(e, AssignmentExpr):
            r2 = self.ex(e.value, st)
            if r2 is None:
                return None
            return self.bind(e.target, self.value_info(e.value, r2), r2, e)
        if isinstance(e, (ListComprehension, SetComprehension)):
            return self.comprehension(e.generator, st)
        if isinstance(e, (GeneratorExpr, DictionaryComprehension)):
            return self.comprehension(e, st)
        if isinstance(e, LambdaExpr):
            if id(e) not in self.lambdas_seen:
                self.lambdas_seen.add(id(e))
                self.lambda_reads.update(_root(r) for r in _free_reads(e))
            return st
        cur: _State | None = st
        for child in _children(e):
            if cur is None:
                return None
            if isinstance(child, Expression):
                cur = self.ex(child, cur)
        return cur

    def comprehension(
        self, g: GeneratorExpr | DictionaryComprehension, st: _State
    ) -> _State | None:
        first = self.ex(g.sequences[0], st) if g.sequences else st
        if first is None:
            return None
        names: set[str] = set()
        for idx in g.indices:
            _target_names(idx, names)
        saved = {n: first.vals.get(n) for n in names}
        saved_alias = {n: first.alias.get(n) for n in names}

        def body(h: _State, ctx: _Ctx) -> _State | None:
            cur: _State | None = h
            for i, (idx, seq, conds) in enumerate(
                zip(g.indices, g.sequences, g.condlists, strict=False)
            ):
                if cur is None:
                    return None
                if i > 0:
                    cur = self.ex(seq, cur)
                    if cur is None:
                        return None
                cur = self.bind(idx, ("fresh", None), cur, g)
                for c in conds:
                    if cur is None:
                        return None
                    cur = self.ex(c, cur)
            if cur is None:
                return None
            if isinstance(g, GeneratorExpr):
                return self.ex(g.left_expr, cur)
            k = self.ex(g.key, cur) if g.key is not None else cur
            return self.ex(g.value, k) if k is not None else None

        head = self.loop(first, body, _Ctx("comp"))
        for n in names:
            head.vals.pop(n, None)
            old = saved[n]
            if old is not None:
                head.vals[n] = old
            head.alias.pop(n, None)
            old_alias = saved_alias[n]
            if old_alias is not None:
                head.alias[n] = old_alias
        return head

    def read(self, chain: Chain, st: _State, *, escape: bool = True, via: str = "") -> None:
        """A read of the path ``chain[-1]``: report uses of moved/expired prefixes."""
        if not st.vals:
            return
        full = chain[-1][0]
        for i, (key, node) in enumerate(chain):
            atoms = st.vals.get(key)
            if atoms is None:
                continue
            rest = full[len(key) + 1 :] if len(full) > len(key) else ""
            if any(a[0] in "MX" for a in atoms):
                meta = _first_attr(rest) in METADATA and self.metadata_ok(atoms)
                if not meta:
                    self.event("use", node, key, atoms, via)
            if escape and any(a[0] == "P" for a in atoms):
                nxt = chain[i + 1][0] if i + 1 < len(chain) else None
                attr = nxt[len(key) + 1 :] if nxt is not None else None
                if attr is None or attr not in TRANSFER_NEUTRAL:
                    st.put(key, frozenset(("E", a[1], 0) if a[0] == "P" else a for a in atoms))

    def metadata_ok(self, atoms: Atoms) -> bool:
        return all(a[0] != "M" or self.scope.facts[a[1]].handles for a in atoms)

    def call(self, e: CallExpr, st: _State) -> _State | None:
        callee = e.callee
        fact = self.scope.fact_for(e, self.infer)
        wait_key: str | None = None
        wait_chain: Chain | None = None
        if isinstance(callee, MemberExpr) and callee.name == "wait" and not e.args:
            wait_chain = _path_chain(callee.expr)
            if wait_chain is not None:
                k = wait_chain[-1][0]
                atoms = st.vals.get(k)
                if (fact is not None and fact.wait) or (
                    atoms is not None and any(a[0] in _TRANSFER_KINDS for a in atoms)
                ):
                    wait_key = k
        if fact is not None:
            self.treated[_pos(e)] = fact.signature()
        elif wait_key is not None:
            self.treated[_pos(e)] = _WAIT_SIGNATURE
        cur: _State | None
        if wait_key is not None and wait_chain is not None:
            self.read(wait_chain, st, escape=False)
            cur = st
        else:
            cur = self.ex(callee, st)
        for a in e.args:
            if cur is None:
                return None
            cur = self.ex(a, cur)
        if cur is None:
            return None
        if fact is not None:
            for idx in fact.consumed:
                if idx < len(e.args):
                    arg = e.args[idx]
                    # A list or tuple display consumes each of its items (nx.join([a, b])).
                    items = arg.items if isinstance(arg, (ListExpr, TupleExpr)) else [arg]
                    for item in items:
                        chain = _path_chain(item)
                        if chain is not None:
                            key = chain[-1][0]
                            self.moved.setdefault(fact.id, [])
                            if key not in self.moved[fact.id]:
                                self.moved[fact.id].append(key)
                            self.invalidate(key, frozenset({("M", fact.id, 0)}), cur)
        if isinstance(callee, NameExpr) and callee.name in self.scope.local_funcs:
            for q in sorted(self.scope.local_funcs[callee.name]):
                self.read_free(q, e, cur, callee.name)
        if isinstance(callee, NameExpr) and callee.name in self.scope.writes:
            for q in sorted(self.scope.writes[callee.name]):
                self.rebind(q, cur, e)
        if wait_key is not None:
            self.complete(e, wait_key, cur)
        if fact is not None and fact.noreturn:
            return None
        return cur

    def complete(self, node: Expression, key: str, st: _State) -> None:
        """``key.wait()`` or ``await key``: the transfer at ``key`` is completed here."""
        atoms = st.get(key)
        if any(a[0] == "W" for a in atoms):
            self.event("twice", node, key, atoms)
        if "." in key or "[" in key:
            self.compound_keys.add(key)
        pids = {a[1] for a in atoms if a[0] in _TRANSFER_KINDS}
        wt = self.wait_target
        for pid in pids:
            # Completed into the moved buffer (``host = up.wait()``), or the buffer may
            # stay moved after the transfer is gone.
            if wt is None or wt[0] is not node or wt[1] not in self.moved.get(pid, []):
                self.unpaired.add(pid)
        st.put(
            key,
            frozenset(("W", pid, node.line) for pid in pids) or frozenset({("W", -1, node.line)}),
        )

    def await_(self, e: AwaitExpr, st: _State) -> _State | None:
        """``await t`` completes a transfer as ``t.wait()`` does (Transfer.__await__
        waits and returns the array), so it is not a hand-on."""
        chain = _path_chain(e.expr)
        if chain is not None:
            key = chain[-1][0]
            atoms = st.vals.get(key)
            held = atoms is not None and any(a[0] in _TRANSFER_KINDS for a in atoms)
            if held or _is_transfer(_static_type(e.expr)):
                self.read(chain, st, escape=False)
                self.complete(e, key, st)
                return st
        return self.ex(e.expr, st)

    def read_free(self, q: str, call: CallExpr, st: _State, fname: str) -> None:
        for key in _prefixes(q):
            atoms = st.vals.get(key)
            if atoms is not None and any(a[0] in "MX" for a in atoms):
                rest = q[len(key) + 1 :] if len(q) > len(key) else ""
                if not (_first_attr(rest) in METADATA and self.metadata_ok(atoms)):
                    self.event("use", call, key, atoms, fname)
            if atoms is not None and key == q and any(a[0] == "P" for a in atoms):
                st.put(key, frozenset(("E", a[1], 0) if a[0] == "P" else a for a in atoms))

    def invalidate(self, key: str, atoms: Atoms, st: _State) -> None:
        """Move (or expire) ``key`` and whatever may be the same object."""
        if "." in key or "[" in key:
            self.compound_keys.add(key)
        st.put(key, atoms)
        group: dict[str, bool] = {}
        for t, must in st.alias.get(key, {}).items():
            group[t] = must
        for name, targets in st.alias.items():
            if key in targets:
                group[name] = targets[key]
        for t, must in list(group.items()):
            for name, targets in st.alias.items():
                if t in targets and name != key and name not in group:
                    group[name] = must and targets[t]
        for other, must in group.items():
            if other == key:
                continue
            if "." in other or "[" in other:
                self.compound_keys.add(other)
            st.put(other, atoms if must else st.get(other) | atoms)


# --------------------------------------------------------------------------------------
# Turning events into messages
# --------------------------------------------------------------------------------------


def _lines(lines: set[int]) -> str:
    ordered = sorted(lines)
    if len(ordered) == 1:
        return f"line {ordered[0]}"
    return "lines " + ", ".join(str(x) for x in ordered[:-1]) + f" and {ordered[-1]}"


def _messages(an: _Analysis) -> list[_Message]:
    facts = an.scope.facts
    out: list[_Message] = []
    for ev in an.events.values():
        node = ev.node
        dedupe = (ev.kind, node.line, node.column, ev.path, ev.extra)
        if ev.kind == "use":
            moves = sorted({facts[a[1]] for a in ev.atoms if a[0] == "M"}, key=_fact_order)
            lends = sorted({facts[a[1]] for a in ev.atoms if a[0] == "X"}, key=_fact_order)
            if any(f.confirmed for f in moves):
                out.append((USE_AFTER_TRANSFER, node, _use_message(an, ev, moves), dedupe))
            if any(f.confirmed for f in lends):
                out.append((LEND_ESCAPE, node, _lend_message(an, ev, lends), (*dedupe, "l")))
        elif ev.kind == "twice":
            if not any(a[0] == "W" and (a[1] < 0 or facts[a[1]].confirmed) for a in ev.atoms):
                continue
            maybe = any(a[0] != "W" for a in ev.atoms)
            first = {a[2] for a in ev.atoms if a[0] == "W"}
            name = _display(ev.path)
            verb = "may be completed twice" if maybe else "is completed twice"
            out.append(
                (
                    TRANSFER_COMPLETED_TWICE,
                    node,
                    f'Transfer "{name}" {verb}: wait() was already called on it at '
                    f"{_lines(first)}{' on some path' if maybe else ''}, and gave its array "
                    "back then. A transfer is completed exactly once: use the array the "
                    "first wait() returned",
                    dedupe,
                )
            )
        elif ev.kind in ("drop", "leak", "discard"):
            if ev.kind != "discard" and _root(ev.path) in an.lambda_reads:
                continue  # a lambda reads the transfer: handed on
            msg = _unfinished_message(an, ev)
            if msg is not None:
                out.append((UNFINISHED_TRANSFER, node, msg, dedupe))
    return out


def _fact_order(f: _Fact) -> tuple[int, int, int]:
    return (f.line, f.end[1], f.id)


def _buffer_name(an: _Analysis, name: str) -> str:
    """The array a chained transfer carries: for ``down = s.download(d, into=up)`` the
    moved name is the transfer ``up``; what ``down.wait()`` returns is up's array."""
    for _ in range(8):  # chains of chains
        nxt = None
        for fid, bound in an.binds.items():
            fact = an.scope.facts[fid] if 0 <= fid < len(an.scope.facts) else None
            if bound and bound[0] == name and (fact is None or fact.producer):
                moved = an.moved.get(fid, [])
                if moved:
                    nxt = _display(moved[0])
                    break
        if nxt is None or nxt == name:
            return name
        name = nxt
    return name


def _fix(an: _Analysis, fact: _Fact, moved: str) -> str:
    if fact.producer:
        moved = _buffer_name(an, moved)
        bound = an.binds.get(fact.id)
        t = bound[0] if bound else "<transfer>"
        return f'take it back first: "{moved} = {t}.wait()"'
    return f'rebind "{moved}" to a new value first ({fact.callee}() owns the old one)'


def _use_message(an: _Analysis, ev: _Event, moves: list[_Fact]) -> str:
    name = _display(ev.path)
    maybe = any(a[0] != "M" for a in ev.atoms)
    lines = {f.line for f in moves}
    callees = sorted({f.callee + "()" for f in moves})
    moved_paths = {p for f in moves for p in an.moved.get(f.id, [])}
    subject = f'"{name}"'
    if moved_paths and ev.path not in moved_paths:
        others = ", ".join(f'"{_display(p)}"' for p in sorted(moved_paths))
        subject += f" (the same object as {others})"
    if ev.extra:
        subject += f' (read by "{ev.extra}()", called here)'
    verb = "may be used" if maybe else "is used"
    use_at = (ev.node.line, ev.node.column)
    loop = " (in an earlier loop iteration)" if all(use_at < f.end for f in moves) else ""
    where = f"{_lines(lines)}{loop}"
    fix_path = ev.path
    if ev.path not in moved_paths:  # an alias: take back the moved name
        fix_path = sorted(an.moved.get(moves[0].id, [ev.path]))[0]
    fix = _fix(an, moves[0], _display(fix_path))
    path_note = " on some path" if maybe else ""
    return (
        f"{subject} {verb} after it was moved into {' / '.join(callees)} at "
        f"{where}{path_note}; {fix}"
    )


def _lend_message(an: _Analysis, ev: _Event, lends: list[_Fact]) -> str:
    name = _display(ev.path)
    maybe = any(a[0] != "X" for a in ev.atoms)
    lines = {f.line for f in lends}
    owners = {an.lends.get(f.id, ("", ""))[1] for f in lends} - {""}
    owner = f' or use the owner "{sorted(owners)[0]}"' if owners else ""
    verb = "may be used" if maybe else "is used"
    return (
        f'Lent handle "{name}" {verb} after its "with ... .lend()" block (lent at '
        f"{_lines(lines)}) has ended{' on some path' if maybe else ''}; a lent handle is "
        f"valid only inside its block: lend again{owner}"
    )


def _unfinished_message(an: _Analysis, ev: _Event) -> str | None:
    facts = an.scope.facts
    if ev.kind == "discard":
        fact = facts[next(iter(ev.atoms))[1]]
        if not fact.confirmed:
            return None
        moved = an.moved.get(fact.id, [])
        what = f'"{_display(moved[0])}" stays moved and ' if moved else ""
        back = _display(moved[0]) if moved else "arr"
        call = ev.node
        shown = fact.callee
        if isinstance(call, CallExpr):
            chain = _path_chain(call.callee)
            if chain is not None:
                shown = _display(chain[-1][0])
        return (
            f"Transfer returned by {fact.callee}() is discarded: nothing can complete it, so "
            f'{what}the copy is never waited for. Bind it and complete it: "t = {shown}(...)", '
            f'then "{back} = t.wait()"'
        )
    pending = sorted({facts[a[1]] for a in ev.atoms if a[0] == "P"}, key=_fact_order)
    if ev.kind == "leak":
        pending = [facts[int(ev.extra)]]
    pending = [f for f in pending if f.confirmed]
    if not pending:
        return None
    fact = pending[0]
    maybe = any(a[0] != "P" for a in ev.atoms)
    name = _display(ev.path)
    moved = an.moved.get(fact.id, [])
    back = _buffer_name(an, _display(moved[0])) if moved else "arr"
    fix = f'"{back} = {name}.wait()"'
    started = f"started at line {fact.line} by {fact.callee}()"
    if ev.kind == "drop":
        verb = "may be dropped here" if maybe else "is dropped here"
        return (
            f'Transfer "{name}" ({started}) {verb} without being completed: rebinding or '
            f'deleting "{name}" loses it{" on some path" if maybe else ""}. Complete it '
            f"first: {fix}"
        )
    verb = "may be left unfinished on some path" if maybe else "is never completed"
    return f'Transfer "{name}" ({started}) {verb}; complete it on every path: {fix}'


# --------------------------------------------------------------------------------------
# The plugin
# --------------------------------------------------------------------------------------

_SigContext: TypeAlias = FunctionSigContext | MethodSigContext
_SigHook: TypeAlias = Callable[[FunctionSigContext], FunctionLike]
_MethodSigHook: TypeAlias = Callable[[MethodSigContext], FunctionLike]


class NumbaxferPlugin(Plugin):
    """See the module docstring."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._function_hooks: dict[str, _SigHook] = {}
        self._method_hooks: dict[str, _MethodSigHook] = {}
        self._others: list[Plugin] | None = None
        self._other_function_hooks: dict[str, _SigHook | None] = {}
        self._other_method_hooks: dict[str, _MethodSigHook | None] = {}
        self._scopes: dict[int, _Scope] = {}
        #: full name -> (the declared types it was decided on, claimed?)
        self._claimed: dict[str, tuple[tuple[Type | None, ...], bool]] = {}
        self._fine_grained = bool(getattr(options, "fine_grained_incremental", False))

    def report_config_data(self, ctx: ReportConfigContext) -> object:
        return {"numbaxfer.mypy_plugin": PLUGIN_VERSION}

    # -- hook factories --------------------------------------------------------------
    # mypy asks for a hook for every full name it calls. The plugin claims the names
    # whose declared signature can matter (a Consumed parameter, a Transfer or lend
    # result, Transfer.wait, or a callee it cannot look up) and lets mypy go on to the
    # next plugin for all others: the signature-hook machinery is not free.
    def get_function_signature_hook(self, fullname: str) -> _SigHook | None:
        hook = self._function_hooks.get(fullname)
        if hook is None:

            def hook(ctx: FunctionSigContext, _name: str = fullname) -> FunctionLike:
                return self._function_sig(ctx, _name)

            self._function_hooks[fullname] = hook
        return hook if self._claims(fullname) else None

    def get_method_signature_hook(self, fullname: str) -> _MethodSigHook | None:
        hook = self._method_hooks.get(fullname)
        if hook is None:

            def hook(ctx: MethodSigContext, _name: str = fullname) -> FunctionLike:
                return self._method_sig(ctx, _name)

            self._method_hooks[fullname] = hook
        return hook if self._claims(fullname) else None

    def _claims(self, fullname: str) -> bool:
        if fullname in (TRANSFER_WAIT, PARTIAL_CALL):
            return True
        if not self._fine_grained:
            # One build sees each symbol with one signature: decide once. (dmypy updates
            # symbols in place, so there the decision is checked against the symbol.)
            cached = self._claimed.get(fullname)
            if cached is not None:
                return cached[1]
        try:
            sym = self.lookup_fully_qualified(fullname)
            node = sym.node if sym is not None else None
            if node is None:
                return True  # a local name or something unusual: look at the call
            types = _declared_types(node)
            cached = self._claimed.get(fullname)
            if (
                cached is not None
                and len(cached[0]) == len(types)
                and all(a is b for a, b in zip(cached[0], types, strict=True))
            ):
                return cached[1]
            claim = any(t is None or _signature_matters(t) for t in types)
            self._claimed[fullname] = (types, claim)
            return claim
        except Exception:
            if os.environ.get(_DEBUG_ENV, "") not in ("", "0"):
                raise
            return True

    # -- delegation to the plugins after this one ----------------------------------
    def _later_plugins(self, api: object) -> list[Plugin]:
        if self._others is None:
            others: list[Plugin] = []
            try:
                chain = getattr(api, "plugin", None)
                plugins = getattr(chain, "_plugins", None)
                if isinstance(plugins, list):
                    for i, p in enumerate(plugins):
                        if p is self:
                            others = [q for q in plugins[i + 1 :] if isinstance(q, Plugin)]
                            break
            except Exception:  # pragma: no cover - mypy internals changed
                others = []
            self._others = others
        return self._others

    def _function_sig(self, ctx: FunctionSigContext, fullname: str) -> FunctionLike:
        sig: FunctionLike = ctx.default_signature
        if fullname in self._other_function_hooks:
            other = self._other_function_hooks[fullname]
        else:
            other = None
            for p in self._later_plugins(ctx.api):
                other = p.get_function_signature_hook(fullname)
                if other is not None:
                    break
            self._other_function_hooks[fullname] = other
        if other is not None:
            sig = other(ctx)
        self._guarded(ctx, fullname, False)
        return sig

    def _method_sig(self, ctx: MethodSigContext, fullname: str) -> FunctionLike:
        sig: FunctionLike = ctx.default_signature
        if fullname in self._other_method_hooks:
            other = self._other_method_hooks[fullname]
        else:
            other = None
            for p in self._later_plugins(ctx.api):
                other = p.get_method_signature_hook(fullname)
                if other is not None:
                    break
            self._other_method_hooks[fullname] = other
        if other is not None:
            sig = other(ctx)
        self._guarded(ctx, fullname, True)
        return sig

    # -- the check -------------------------------------------------------------------
    def _guarded(self, ctx: _SigContext, fullname: str, is_method: bool) -> None:
        try:
            self._on_call(ctx, fullname, is_method)
        except Exception:
            if os.environ.get(_DEBUG_ENV, "") not in ("", "0"):
                raise
            # degrade: this call goes unchecked

    def _on_call(self, ctx: _SigContext, fullname: str, is_method: bool) -> None:
        sig = ctx.default_signature
        partial: CallableType | None = None
        if fullname == PARTIAL_CALL and isinstance(ctx, MethodSigContext):
            recv = get_proper_type(ctx.type)
            extra = recv.extra_attrs if isinstance(recv, Instance) else None
            applied = get_proper_type(extra.attrs.get("__mypy_partial")) if extra else None
            if not isinstance(applied, CallableType):
                return
            partial = sig = applied
        consumed = False
        for t in sig.arg_types:
            if _is_consumed(t):
                consumed = True
                break
        is_wait = fullname == TRANSFER_WAIT
        if not consumed and not is_wait:
            kind = _ret_kind(sig.ret_type)
            if kind not in ("producer", "lend"):
                return
        call = ctx.context
        if not isinstance(call, CallExpr) or _errors_ignored(ctx.api):
            return
        scope = self._scope(ctx.api)
        if scope is None:
            return
        actual_index = {id(a): i for i, a in enumerate(call.args)}
        formal_actuals: list[list[int]] | None = [
            [actual_index[id(a)] for a in group if id(a) in actual_index] for group in ctx.args
        ]
        if partial is not None:  # ctx.args are for __call__(*args, **kwargs)
            formal_actuals = _map_actuals(call, partial, False)
            meth, _, cls = (partial.name or "").partition(" of ")  # "upload of Stream"
            if meth:
                fullname = f"{cls}.{meth}" if cls else meth
        if formal_actuals is None:
            return
        fact = _fact_from_signature(
            call,
            sig.arg_types,
            sig.ret_type,
            formal_actuals,
            _short_name(fullname, is_method),
            True,
            is_wait,
        )
        if not fact.relevant():
            return
        key = _pos(call)
        old = scope.confirmed.get(key)
        if old is None:
            predicted = scope.predicted.get(key)
            if predicted is not None and predicted.signature() == fact.signature():
                predicted.confirmed = True  # the atoms of the last analysis refer to it
                predicted.callee = fact.callee
                fact = predicted
            else:
                scope.add(fact)
            scope.confirmed[key] = fact
            last = scope.analysis
            if last is not None and last.treated.get(key) == fact.signature():
                # The last analysis already gave this call these effects: only what is
                # reportable changes (errors need a confirmed call).
                scope.pending = [m for m in _messages(last) if m[3] not in scope.reported]
            else:
                self._analyse(scope)
        elif old.signature() != fact.signature():
            # Another overload item or union member: the union of what they do.
            old.consumed = tuple(sorted(set(old.consumed) | set(fact.consumed)))
            old.handles = old.handles and fact.handles
            old.producer = old.producer or fact.producer
            old.lend = old.lend or fact.lend
            old.wait = old.wait or fact.wait
            self._analyse(scope)
        self._report(ctx, scope)

    def _scope(self, api: object) -> _Scope | None:
        binder = getattr(api, "binder", None)
        if binder is None:
            return None
        scope = self._scopes.get(id(binder))
        if scope is not None and scope.binder is binder:
            return scope
        stack = getattr(getattr(api, "scope", None), "stack", None)
        if not isinstance(stack, list):
            return None
        body: list[Statement] | None = None
        node: Node | None = None
        for item in reversed(stack):
            if isinstance(item, LambdaExpr):
                continue
            if isinstance(item, FuncItem):
                node, body = item, item.body.body
                break
            if isinstance(item, TypeInfo):
                return None  # class bodies are not checked
            if isinstance(item, MypyFile):
                node, body = item, item.defs
                break
        if node is None or body is None:
            return None
        scope = _Scope(binder, node, body)
        if len(self._scopes) >= _MAX_SCOPES:
            for k in list(self._scopes)[: _MAX_SCOPES // 2]:
                del self._scopes[k]
        self._scopes[id(binder)] = scope
        return scope

    def _analyse(self, scope: _Scope) -> None:
        if scope.spent > _SCOPE_BUDGET_S:
            return  # a pathological scope: keep what the analyses so far found
        start = time.perf_counter()
        analysis = _Analysis(scope)
        analysis.run()
        scope.spent += time.perf_counter() - start
        scope.analysis = analysis
        scope.pending = [m for m in _messages(analysis) if m[3] not in scope.reported]

    def _report(self, ctx: _SigContext, scope: _Scope) -> None:
        """Report what the last analysis found and is not reported yet.

        mypy sometimes checks a call while it discards errors (overloads, comprehensions
        checked twice); an error that did not reach mypy's list is tried again at the next
        hook of this scope.
        """
        if not scope.pending:
            return
        errors = getattr(getattr(ctx.api, "msg", None), "errors", None)
        still: list[_Message] = []
        for message in scope.pending:
            code, node, text, dedupe = message
            if dedupe in scope.reported:
                continue
            before = _error_count(errors)
            ctx.api.fail(text, node, code=code)
            if before is None or _error_count(errors) != before:
                scope.reported.add(dedupe)
            else:
                still.append(message)
        scope.pending = still


def _errors_ignored(api: object) -> bool:
    """Are errors in the module being checked thrown away (ignore_errors, silent imports)?"""
    errors = getattr(getattr(api, "msg", None), "errors", None)
    ignored = getattr(errors, "ignored_files", None)
    if isinstance(ignored, set) and getattr(errors, "file", None) in ignored:
        return True
    return getattr(getattr(errors, "options", None), "ignore_errors", False) is True


def _error_count(errors: object) -> int | None:
    try:
        info = getattr(errors, "error_info_map", None)
        file = getattr(errors, "file", None)
        if isinstance(info, dict) and isinstance(file, str):
            return len(info.get(file, ()))
    except Exception:  # pragma: no cover
        return None
    return None


def _parse_version(version: str) -> tuple[int, ...]:
    nums: list[int] = []
    for part in version.split("+")[0].split(".")[:3]:
        m = re.match(r"\d+", part)
        if m is None:
            break
        nums.append(int(m.group()))
    return tuple(nums)


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: refuse mypy older than 1.16, else the plugin class."""
    if _parse_version(version) < MIN_MYPY:
        print(
            f"error: numbaxfer.mypy_plugin needs mypy >= {MIN_MYPY[0]}.{MIN_MYPY[1]}, but this "
            f"is mypy {version}. Upgrade mypy (pip install 'mypy>=1.16'), or remove "
            "numbaxfer.mypy_plugin from the `plugins` option of your mypy configuration.",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return NumbaxferPlugin
