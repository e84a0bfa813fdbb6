"""Syntax the engine needs for blocks and bound arguments: ``nx.pinned``/``nx.mapped``
blocks, the owner a ``with h.lend()``/``with h.write()`` block borrows, the parts of a
value that leave a lend block with it, container methods that keep their argument, and
what ``functools.partial(f, *bound)`` will do to the bound arguments when it is called."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from mypy.nodes import (
    Block,
    CallExpr,
    ClassDef,
    ConditionalExpr,
    Decorator,
    DictExpr,
    Expression,
    FuncDef,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    OverloadedFuncDef,
    RefExpr,
    SetExpr,
    StarExpr,
    Statement,
    TupleExpr,
    WithStmt,
)
from mypy.types import CallableType, Instance, get_proper_type

from .facts import Fact, InferInfo, _is_handle, predict_fact, result_info, static_type
from .names import EXPECTS_RAISE, FUNCTOOLS_PARTIAL, PINNED_SCOPES
from .paths import path_chain, root_name
from .syntax import child_nodes, sub_blocks

#: Methods that keep their argument in the container (``held.append(v)``).
CONTAINER_ADDS: Final = frozenset(
    {"append", "appendleft", "add", "insert", "extend", "put", "put_nowait", "setdefault"}
)


#: Rule 3: what the owner may not do while its block is open (besides being moved).
#: A lend leaves it readable (and lendable again); an open write() view leaves it nothing.
BORROW_BREAKERS: Final = {
    "lend": frozenset({"write", "free"}),
    "write": frozenset({"write", "free", "read", "lend"}),
}


def borrowed_owner(e: Expression, fact: Fact | None) -> tuple[str, str] | None:
    """``with h.lend()`` (a confirmed or predicted lend of a handle) or ``with
    h.write()`` (``h`` a numbaxfer handle): (``h``'s path, "lend" or "write")."""
    if not isinstance(e, CallExpr) or e.args or not isinstance(e.callee, MemberExpr):
        return None
    name = e.callee.name
    if name not in BORROW_BREAKERS:
        return None
    chain = path_chain(e.callee.expr)
    if chain is None:
        return None
    if name == "lend" and (fact is None or not fact.lend):
        return None
    t = static_type(e.callee.expr)
    if name == "write" and (t is None or not _is_handle(t)):
        return None
    return chain[-1][0], name


def borrow_may_conflict(body: Sequence[Statement], call: CallExpr) -> bool:
    """``call`` is ``h.write()``: is it the context of a ``with`` in ``body`` (not in
    nested functions) whose block names ``h``'s root at all? If not, that block cannot
    break rule 3, and the plugin need not analyse the function for it. True when in
    doubt (the call is not found as a ``with`` context)."""
    chain = path_chain(call.callee.expr) if isinstance(call.callee, MemberExpr) else None
    if chain is None:
        return True
    root = root_name(chain[-1][0])
    todo: list[Node] = list(body)
    while todo:
        n = todo.pop()
        if isinstance(n, WithStmt) and any(e is call for e in n.expr):
            return any(isinstance(x, NameExpr) and x.name == root for x in _walk(n.body))
        if isinstance(n, Block):
            todo.extend(n.body)
        elif not isinstance(n, (FuncDef, Decorator, OverloadedFuncDef, ClassDef)):
            todo.extend(sub_blocks(n))
    return True


def _walk(n: Node) -> Iterator[Node]:
    todo: list[Node] = [n]
    while todo:
        x = todo.pop()
        yield x
        todo.extend(child_nodes(x))


def swallows(e: Expression, infer: InferInfo) -> str:
    """What the context manager of ``with e:`` does with an exception of its body:
    "always" for ``pytest.raises(...)`` (the body must raise; a body that completes
    fails the test), "maybe" for one whose ``__exit__`` is declared to return ``bool``
    (``contextlib.suppress``: the block may end at any statement), "" otherwise."""
    if not isinstance(e, CallExpr):
        return ""
    callee = e.callee
    if isinstance(callee, RefExpr) and callee.fullname in EXPECTS_RAISE:
        return "always"
    info = result_info(e, infer)
    exit_ = info.get_method("__exit__") if info is not None else None
    if isinstance(exit_, FuncDef) and isinstance(exit_.type, CallableType):
        ret = get_proper_type(exit_.type.ret_type)
        if isinstance(ret, Instance) and ret.type.fullname == "builtins.bool":
            return "maybe"
    return ""


def pins_in_place(call: CallExpr) -> bool:
    """``nx.pinned(a, ...)`` or ``nx.mapped(a, ...)`` (by full name: aliases count)."""
    callee = call.callee
    return isinstance(callee, RefExpr) and callee.fullname in PINNED_SCOPES


def escaping_parts(e: Expression) -> Iterator[Expression]:
    """The parts of ``e`` that leave with it: ``e`` itself, and the items of a tuple,
    list, set or dict display and the arms of a conditional expression (recursively).
    Not the arguments of a call: what a call returns is a new value (``float(v.read()
    .sum())`` keeps nothing of ``v``)."""
    todo: list[Expression] = [e]
    while todo:
        x = todo.pop()
        if isinstance(x, (TupleExpr, ListExpr, SetExpr)):
            todo.extend(x.items)
        elif isinstance(x, DictExpr):
            for k, v in x.items:
                if k is not None:
                    todo.append(k)
                todo.append(v)
        elif isinstance(x, ConditionalExpr):
            todo.extend((x.if_expr, x.else_expr))
        elif isinstance(x, StarExpr):
            todo.append(x.expr)
        else:
            yield x


def partial_of(call: CallExpr, infer: InferInfo) -> tuple[Fact, list[Expression]] | None:
    """For ``functools.partial(f, a, b, k=c)``: what calling it will do to the bound
    arguments (a predicted fact of ``f(a, b, k=c)``, whose ``consumed`` indexes the
    bound arguments) and those arguments. None if it binds nothing that moves."""
    callee = call.callee
    if not (isinstance(callee, RefExpr) and callee.fullname == FUNCTOOLS_PARTIAL) or not call.args:
        return None
    if call.arg_names[0] is not None or len(call.args) < 2:
        return None
    inner = CallExpr(call.args[0], call.args[1:], call.arg_kinds[1:], call.arg_names[1:])
    inner.set_line(call)
    fact = predict_fact(inner, infer)
    if not isinstance(fact, Fact) or not fact.consumed:
        return None
    return fact, inner.args
