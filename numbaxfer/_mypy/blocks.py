"""Syntax the engine needs for blocks and bound arguments: ``nx.pinned``/``nx.mapped``
blocks, the owner a ``with h.lend()``/``with h.write()`` block borrows, the parts of a
value that leave a lend block with it, container methods that keep their argument, and
what ``functools.partial(f, *bound)`` will do to the bound arguments when it is called."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.nodes import (
    CallExpr,
    ConditionalExpr,
    DictExpr,
    Expression,
    ListExpr,
    MemberExpr,
    RefExpr,
    SetExpr,
    StarExpr,
    TupleExpr,
)

from .facts import Fact, InferInfo, _is_handle, predict_fact, static_type
from .names import FUNCTOOLS_PARTIAL, PINNED_SCOPES
from .paths import path_chain

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


def partial_of(call: CallExpr) -> CallExpr | None:
    """For ``functools.partial(f, a, k=c)``: the call ``f(a, k=c)`` that calling it starts
    from (its arguments are the bound ones). None if ``call`` is not such a partial."""
    callee = call.callee
    if not (isinstance(callee, RefExpr) and callee.fullname == FUNCTOOLS_PARTIAL) or not call.args:
        return None
    if call.arg_names[0] is not None:
        return None
    inner = CallExpr(call.args[0], call.args[1:], call.arg_kinds[1:], call.arg_names[1:])
    inner.set_line(call)
    return inner


def partial_call(
    inner: CallExpr, call: CallExpr, infer: InferInfo
) -> tuple[Fact, list[Expression]] | None:
    """Calling the partial of ``inner`` as ``call``: a predicted fact of ``f(*bound,
    *args, **kwargs)`` (a keyword given at the call replaces the bound one, as at run
    time) and the arguments its ``consumed`` indexes: the bound ones, then the call's.
    None if nothing of either moves. If the call's arguments cannot be matched to f
    (``*args``, say), only what f does to the bound arguments is predicted."""
    given = {n for n in call.arg_names if n is not None}
    keep = [i for i, n in enumerate(inner.arg_names) if n is None or n not in given]
    full = CallExpr(
        inner.callee,
        [inner.args[i] for i in keep] + list(call.args),
        [inner.arg_kinds[i] for i in keep] + list(call.arg_kinds),
        [inner.arg_names[i] for i in keep] + list(call.arg_names),
    )
    full.set_line(call)
    for attempt in (full, inner):
        fact = predict_fact(attempt, infer)
        if isinstance(fact, Fact) and fact.consumed:
            return fact, attempt.args
    return None
