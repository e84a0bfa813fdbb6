"""Which exceptions a statement may raise, for the handlers of a ``try``.

A handler of a class only the program's own code can raise (``except DiagnosticError:``,
a class defined outside the builtins, numbaxfer, numpy, numba and the CUDA bindings)
cannot be entered from a statement that runs no code of the program: ``self.buf =
down.wait()`` raises only numbaxfer's (and CUDA's) errors, so such a handler never sees
the state before it (where ``self.buf`` is still moved). The analysis (``flow.py``)
delivers that state only to the handlers that may catch what numbaxfer raises, and to
the ``try``'s outer handlers and ``finally``. Where in doubt (a call of the program's
code, a property, an operator on the program's objects, ``with``, ``for``, ``raise``),
a statement may raise anything; so may one that hands a library call or an operator a
value of the program's classes (``float(gain)``, ``sum(charges)``, ``np.asarray(r)``,
``next(gen)`` run its dunders or its generator), one inside a ``with`` block of the
program's manager (its ``__exit__`` may translate the error), and every statement of a
module that imports ``signal`` (a handler may raise anywhere)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.nodes import (
    AssertStmt,
    AssignmentStmt,
    BytesExpr,
    CallExpr,
    ComparisonExpr,
    Decorator,
    Expression,
    ExpressionStmt,
    FloatExpr,
    IfStmt,
    Import,
    ImportAll,
    ImportFrom,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
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
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    NoneType,
    TupleType,
    Type,
    UnionType,
    get_proper_type,
)

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
    if isinstance(t, TupleExpr) and t.items:  # ``except (ParseError, RangeError):``
        return all(program_exception(i) for i in t.items)
    if not isinstance(t, RefExpr) or not isinstance(t.node, TypeInfo):
        return False
    return t.node.module_name.split(".", 1)[0] not in _RAISING_MODULES


#: Is this expression an object the analysis' state says is numbaxfer's (a handle or a
#: transfer whose type mypy has not inferred yet)?
Known = Callable[[Expression], bool]


def _never(_e: Expression) -> bool:
    return False


def _plain_attribute(e: MemberExpr, known: Known = _never) -> bool:
    """Does reading or storing ``e`` run no code of the program: an attribute of an
    object of numbaxfer, numpy or the builtins, or a plain variable (no property, no
    ``__getattr__``/``__setattr__``) of the program's class?"""
    if inert_receiver(e.expr) or known(e.expr) or _untyped(e.expr):
        return True  # (``up.label`` of a transfer)
    base = get_proper_type(value_type(e.expr) or NoneType())
    if not isinstance(base, Instance):
        return False
    info = base.type
    hooks = [info.get(m) for m in ("__getattr__", "__getattribute__", "__setattr__")]
    if not all(h is None or inert_module(h.fullname or "") for h in hooks):
        return False  # the class defines one of its own
    sym = info.get(e.name)
    return sym is not None and isinstance(sym.node, Var) and not sym.node.is_property


def _library_call(e: CallExpr, known: Known) -> bool:
    """A call of numbaxfer's or numpy's (by name, or a method of an object of theirs),
    keyword arguments too (``s.upload(h, to=dev)``), none of them possibly a callable
    of the program (a ``@cuda.jit`` kernel is numba's: ``s.launch(scale, ...)``)."""
    if any(_program_callable(a, known) for a in e.args):
        return False
    callee = e.callee
    name = callee.fullname if isinstance(callee, RefExpr) else ""
    if name:
        return name.split(".", 1)[0] in ("numbaxfer", "numpy")
    if isinstance(callee, MemberExpr):
        if known(callee.expr) or _str_method(e) or _untyped(callee.expr):
            return True
        # (a builtin object's method may take a callable by keyword: ``sort(key=)``)
        keywords = any(n is not None for n in e.arg_names)
        return inert_receiver(callee.expr) and not (keywords and _builtin_receiver(callee.expr))
    return False


def _program_callable(a: Expression, known: Known) -> bool:
    """May the argument ``a`` be a function of the program (``maybe_callable``)? Not a
    ``@cuda.jit`` kernel, nor a handle, a transfer or an attribute of one."""
    if not maybe_callable(a) or _numba_kernel(a) or known(a):
        return False
    return not (isinstance(a, MemberExpr) and known(a.expr))


def _str_method(e: Node) -> bool:
    """``"".join([...])``, ``"{:>8}".format(x)``: a method of a string literal (what an
    f-string becomes), which runs the program's code only through its arguments."""
    return (
        isinstance(e, CallExpr)
        and isinstance(e.callee, MemberExpr)
        and isinstance(e.callee.expr, StrExpr)
        and e.callee.name in ("join", "format")
    )


def _numba_kernel(a: Expression) -> bool:
    """Is ``a`` a function the program decorated only with numba's or numbaxfer's
    decorators (``@cuda.jit``: a kernel, compiled and run on the device, that raises
    none of the program's classes on the host)? Not known from mypy's cache: no."""
    node = a.node if isinstance(a, RefExpr) else None
    if not isinstance(node, Decorator):
        return False
    decorators = getattr(node, "original_decorators", None)
    if not decorators:
        return False
    for d in decorators:
        f = d.callee if isinstance(d, CallExpr) else d
        name = f.fullname if isinstance(f, RefExpr) else ""
        if not name or name.split(".", 1)[0] not in ("numba", "numbaxfer"):
            return False
    return True


def _builtin_receiver(e: Expression) -> bool:
    """A builtin object's method may take a callable by keyword (``list.sort(key=)``)."""
    t = get_proper_type(value_type(e) or NoneType())
    return isinstance(t, Instance) and t.type.module_name == "builtins"


def _inert_type(t: Type, depth: int = 0) -> bool:
    """Is every value of type ``t`` an object of numbaxfer, numpy or the builtins (a
    container of them too), whose dunders (``__float__``, ``__add__``, ``__hash__``,
    ``__array__``, a generator's ``__next__``) run no code of the program? An ``Any``
    inside a container of theirs is taken as theirs; an ``Any`` value is not."""
    p = get_proper_type(t)
    if isinstance(p, (NoneType, LiteralType)):
        return True
    if isinstance(p, (UnionType, TupleType)):
        return depth < 4 and all(_inert_type(i, depth + 1) for i in p.items)
    if isinstance(p, Instance):
        return inert_module(p.type.module_name) and (
            depth < 4 and all(_inert_type(a, depth + 1) for a in p.args)
        )
    if isinstance(p, CallableType) and p.is_type_obj():  # ``dtype=np.float32``
        return inert_module(p.type_object().module_name)
    return depth > 0 and isinstance(p, AnyType)


def _inert_value(e: Expression, known: Known) -> bool:
    """Does handing ``e`` to a library call (or an operator) run no code of the
    program on it: a literal, a handle or transfer, a value of ``_inert_type``?"""
    if isinstance(e, (IntExpr, StrExpr, FloatExpr, BytesExpr)) or known(e):
        return True
    if isinstance(e, MemberExpr) and known(e.expr):
        return True  # ``up.label``: a property of a transfer mypy has not typed yet
    if _str_method(e):
        return True  # a str (its arguments are checked as the call's)
    if isinstance(e, RefExpr) and isinstance(e.node, TypeInfo):
        return inert_module(e.node.module_name)
    if isinstance(e, (TupleExpr, ListExpr)):
        return all(_inert_value(i, known) for i in e.items)
    if (
        isinstance(e, CallExpr)
        and isinstance(e.callee, MemberExpr)
        and (
            _untyped(e.callee.expr)
            or (inert_receiver(e.callee.expr) and _inert_value(e.callee.expr, known))
        )
    ):
        return True  # ``bufs.pop()`` of a list of handles: an element, or a builtin value
    if _untyped(e):
        return True
    t = value_type(e)
    return t is not None and _inert_type(t)


def _untyped(e: Expression) -> bool:
    """A variable mypy has not inferred the type of yet (an analysis runs at the first
    numbaxfer call of a scope): taken as the library's, so that nothing is reported
    on a guess; the analysis runs again once it is typed (``flow.known_value``)."""
    return isinstance(e, NameExpr) and isinstance(e.node, Var) and e.node.type is None


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
            if not _plain_attribute(n, known):
                return False
            todo.append(n.expr)
        elif isinstance(n, CallExpr):
            if user_call(n) and not _library_call(n, known):
                return False
            # ``float(gain)``, ``sum(charges)``, ``np.asarray(reading)``, ``next(gen)``:
            # the callee runs the argument's own methods
            if not all(_inert_value(a, known) or _numba_kernel(a) for a in n.args):
                return False
            todo.extend(n.args)
            if isinstance(n.callee, MemberExpr):
                todo.append(n.callee.expr)  # the method itself is numbaxfer's, numpy's
        elif isinstance(n, IndexExpr):
            if not inert_receiver(n.base) or not _inert_value(n.index, known):
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
            if not all(inert_receiver(o) and _inert_value(o, known) for o in operands):
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
        return _plain_attribute(lv, known) and _quiet_expression(lv.expr, known)
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


def installs_signal_handlers(file: MypyFile | None) -> bool:
    """Does the module import ``signal`` (anywhere in it)? A handler it installs runs
    the program's code between any two statements (``raise StepTimeout`` from a
    ``SIGALRM`` handler), so no statement there raises only numbaxfer's errors."""
    if file is None:
        return False
    for imp in file.imports:
        if isinstance(imp, Import) and any(m == "signal" for m, _as in imp.ids):
            return True
        if isinstance(imp, (ImportFrom, ImportAll)) and imp.id == "signal":
            return True
    return False


def library_manager(e: Expression, known: Known = _never) -> bool:
    """Is ``e`` (a ``with`` item) a manager of numbaxfer's or numpy's (``h.write()``,
    ``s.lend()``, ``nx.pinned(a)``), whose ``__exit__`` raises none of the program's
    classes? A manager of the program's (``with stage():``) may turn numbaxfer's error
    into one of them."""
    return _quiet_expression(e, known)


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
