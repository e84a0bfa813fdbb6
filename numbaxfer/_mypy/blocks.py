"""Syntax the engine needs for blocks and bound arguments: ``nx.pinned``/``nx.mapped``
blocks, the owner a ``with h.lend()``/``with h.write()`` block borrows, the parts of a
value that leave a lend block with it, container methods that keep their argument, and
what ``functools.partial(f, *bound)`` will do to the bound arguments when it is called."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    ARG_STAR,
    AssignmentExpr,
    AssignmentStmt,
    AwaitExpr,
    Block,
    CallExpr,
    ClassDef,
    ConditionalExpr,
    Decorator,
    DelStmt,
    DictExpr,
    Expression,
    ForStmt,
    FuncDef,
    FuncItem,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RefExpr,
    ReturnStmt,
    SetExpr,
    StarExpr,
    Statement,
    StrExpr,
    TryStmt,
    TupleExpr,
    TypeInfo,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)
from mypy.types import CallableType, Instance, TupleType, get_proper_type

from .facts import (
    Fact,
    InferInfo,
    is_handle,
    predict_fact,
    result_info,
    ret_kind,
    static_type,
    transfer_items,
)
from .memo import by_node
from .names import (
    AWAIT_ALL,
    AWAIT_ONE,
    EXECUTOR_CLASSES,
    EXIT_STACKS,
    EXPECTS_RAISE,
    FUNCTOOLS_PARTIAL,
    PINNED_SCOPES,
    THREAD_STARTERS,
)
from .paths import path_chain, root_name
from .syntax import child_nodes, sub_blocks, target_names

#: Methods that keep their argument in the container (``held.append(v)``).
CONTAINER_ADDS: Final = frozenset(
    {"append", "appendleft", "add", "insert", "extend", "put", "put_nowait", "setdefault"}
)
#: Those of them whose one argument becomes one element (``ups.append(t)``).
ELEMENT_ADDS: Final = frozenset({"append", "appendleft", "add", "put", "put_nowait"})


#: Rule 3: what the owner may not do while its block is open (besides being moved).
#: A lend leaves it readable (and lendable again); an open write() view leaves it nothing.
BORROW_BREAKERS: Final = {
    "lend": frozenset({"write", "free", "close"}),
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
    if name == "write" and (t is None or not is_handle(t)):
        return None
    owner = chain[-1][0]
    recv = e.callee.expr
    if isinstance(recv, MemberExpr) and len(chain) > 1:
        field = property_field(recv)
        if field is not None:  # ``with self.host.lend()``, ``host`` returning ``self._host``
            owner = f"{chain[-2][0]}.{field}"
    return owner, name


def property_field(e: MemberExpr) -> str | None:
    """``obj.prop`` where ``prop`` is a property of ``obj``'s class whose getter only
    returns an attribute of its object (``return self._host``): that attribute."""
    base = static_type(e.expr)
    p = get_proper_type(base) if base is not None else None
    if not isinstance(p, Instance):
        return None
    sym = p.type.get(e.name)
    node = sym.node if sym is not None else None
    if isinstance(node, OverloadedFuncDef) and node.impl is None and node.items:
        node = node.items[0]  # ``@x.setter`` makes the property an overload
    if not (isinstance(node, Decorator) and node.var.is_property) or not node.func.arguments:
        return None
    body = node.func.body.body
    me = node.func.arguments[0].variable.name
    if len(body) == 1 and isinstance(body[0], ReturnStmt):
        rv = body[0].expr
        if isinstance(rv, MemberExpr) and isinstance(rv.expr, NameExpr) and rv.expr.name == me:
            return rv.name
    return None


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


#: Executor and loop methods that run ``f(*args)`` later -> the index of ``f``, and
#: whether their keyword arguments go to ``f`` (``submit``) or are their own
#: (``call_soon(..., context=...)``).
_DEFERRING: Final = {
    "submit": (0, True),
    "run_in_executor": (1, False),
    "call_soon": (0, False),
    "call_soon_threadsafe": (0, False),
    "call_later": (1, False),
    "call_at": (1, False),
}


def defers(fullname: str) -> bool:
    """Is ``fullname`` one of the callables ``deferred_call`` reads (by its name only:
    the receiver's class is checked at the call)?"""
    if fullname in THREAD_STARTERS:
        return True
    head, _, method = fullname.rpartition(".")
    return method in _DEFERRING and head.startswith(("concurrent.futures.", "asyncio."))


def deferred_call(call: CallExpr, receiver: TypeInfo | None) -> CallExpr | None:
    """``executor.submit(f, a, k=b)``, ``loop.run_in_executor(ex, f, a)``,
    ``loop.call_soon(f, a)`` (``call_later``/``call_at`` after their time),
    ``asyncio.to_thread(f, a)``, ``threading.Thread(target=f, args=(a,), kwargs={...})``:
    the call ``f(a, ...)`` that runs later, in a worker thread or from the event loop,
    with the arguments bound here. ``receiver``: the type of the method's receiver. None
    for any other call, and where the arguments cannot be matched (``*args``)."""
    callee = call.callee
    if not call.args or any(k not in (ARG_POS, ARG_NAMED) for k in call.arg_kinds):
        return None
    fullname = callee.fullname if isinstance(callee, RefExpr) else ""
    args: list[Expression]
    names: list[str | None]
    if fullname == "threading.Thread":
        given = dict(zip(call.arg_names, call.args, strict=True))
        target, bound, kw = given.get("target"), given.get("args"), given.get("kwargs")
        if target is None:
            return None
        args, names = [], []
        if bound is not None:
            if not isinstance(bound, (TupleExpr, ListExpr)):
                return None
            if any(isinstance(x, StarExpr) for x in bound.items):
                return None
            args, names = list(bound.items), [None] * len(bound.items)
        if kw is not None:
            if not isinstance(kw, DictExpr) or not all(isinstance(k, StrExpr) for k, _ in kw.items):
                return None
            args += [v for _, v in kw.items]
            names += [k.value for k, _ in kw.items if isinstance(k, StrExpr)]
    elif fullname in THREAD_STARTERS:  # asyncio.to_thread(f, *args, **kwargs)
        target, args, names = call.args[0], call.args[1:], call.arg_names[1:]
    elif isinstance(callee, MemberExpr) and callee.name in _DEFERRING and receiver is not None:
        if not any(b.fullname in EXECUTOR_CLASSES for b in receiver.mro):
            return None
        at, forwards = _DEFERRING[callee.name]
        if len(call.args) <= at or call.arg_names[at] is not None:
            return None
        target = call.args[at]
        pairs = [
            (a, n)
            for a, n in zip(call.args[at + 1 :], call.arg_names[at + 1 :], strict=True)
            if forwards or n is None
        ]
        args, names = [a for a, _ in pairs], [n for _, n in pairs]
    else:
        return None
    if not isinstance(target, RefExpr):
        return None
    kinds = [ARG_POS if n is None else ARG_NAMED for n in names]
    out = CallExpr(target, list(args), kinds, list(names))
    out.set_line(call)
    return out


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
    # f(*bound positional, *call positional, **bound keywords, **call keywords)
    parts = [(inner, i) for i in keep] + [(call, i) for i in range(len(call.args))]
    parts.sort(key=lambda p: p[0].arg_kinds[p[1]] not in (ARG_POS, ARG_STAR))  # stable
    full = CallExpr(
        inner.callee,
        [c.args[i] for c, i in parts],
        [c.arg_kinds[i] for c, i in parts],
        [c.arg_names[i] for c, i in parts],
    )
    full.set_line(call)
    for attempt in (full, inner):
        fact = predict_fact(attempt, infer)
        if isinstance(fact, Fact) and fact.consumed:
            return fact, attempt.args
    return None


def awaited_through(call: CallExpr) -> list[Expression] | None:
    """``asyncio.wait_for(t, timeout)``, ``asyncio.shield(t)``: ``[t]``; ``asyncio.gather(a,
    b)`` with positional arguments only: ``[a, b]``. Awaiting the call returns normally
    only once each of them has completed, like ``await t``. None for any other call (and
    for ``gather(*ts)`` or ``gather(..., return_exceptions=True)``: a result may then be
    an exception, its transfer still pending)."""
    callee = call.callee
    if not isinstance(callee, RefExpr) or not call.args:
        return None
    if callee.fullname in AWAIT_ONE and call.arg_kinds[0] == ARG_POS:
        return [call.args[0]]
    if callee.fullname in AWAIT_ALL and all(k == ARG_POS for k in call.arg_kinds):
        return list(call.args)
    return None


#: What a body may do with its ``with ExitStack() as stack`` and still have the stack
#: unwind (ending what it entered) exactly when the block ends: not ``pop_all()``, not
#: pass it on, store it or rebind it. (``close()`` unwinds earlier: later reads missed.)
_STACK_METHODS: Final = frozenset(
    {"enter_context", "callback", "push", "close", "push_async_callback", "push_async_exit"}
)


def _only_stack_calls(body: Block, name: str) -> bool:
    """Every mention of ``name`` in ``body`` is ``name.<one of _STACK_METHODS>``."""
    todo: list[Node] = [body]
    while todo:
        n = todo.pop()
        if isinstance(n, MemberExpr) and isinstance(n.expr, NameExpr) and n.expr.name == name:
            if n.name not in _STACK_METHODS:
                return False
            continue
        if isinstance(n, NameExpr) and n.name == name:
            return False
        todo.extend(child_nodes(n))
    return True


def exit_stack(e: Expression, target: Expression | None, body: Block) -> str | None:
    """``with contextlib.ExitStack() as stack:`` (or AsyncExitStack) whose body only
    calls ``stack.enter_context(...)``, ``stack.callback(...)`` and the like: the name
    ``stack``, whose entered contexts end with the block. None otherwise (silence)."""
    if not (isinstance(e, CallExpr) and isinstance(e.callee, RefExpr)) or e.args:
        return None
    if e.callee.fullname not in EXIT_STACKS or not isinstance(target, NameExpr):
        return None
    return target.name if _only_stack_calls(body, target.name) else None


def entered_on_stack(call: CallExpr) -> tuple[str, CallExpr] | None:
    """``stack.enter_context(cm(...))``: (``stack``, the ``cm(...)`` call)."""
    callee = call.callee
    if not (isinstance(callee, MemberExpr) and callee.name == "enter_context"):
        return None
    if not isinstance(callee.expr, NameExpr) or len(call.args) != 1:
        return None
    inner = call.args[0]
    if call.arg_kinds[0] != ARG_POS or not isinstance(inner, CallExpr):
        return None
    return callee.expr.name, inner


def kept_handles(body: Block, names: Sequence[str], entering: Expression | None) -> tuple[str, ...]:
    """The handle names of an ``nx.pinned``/``nx.mapped`` block (``names``) that still
    hold its handle when the block ends, as far as syntax tells: the body binds them
    only by taking them back (``h = up.wait()``, ``h = await up``) or, for a block
    entered on an exit stack, by that entry (``entering``, the ``enter_context`` call).
    A name the body binds otherwise may hold another handle (silence)."""
    bound: dict[str, bool] = {n: True for n in names}
    todo: list[Node] = [body]
    while todo:
        n = todo.pop()
        if isinstance(n, AssignmentStmt):
            rv = n.rvalue
            take_back = (
                (
                    isinstance(rv, CallExpr)
                    and isinstance(rv.callee, MemberExpr)
                    and rv.callee.name == "wait"
                    and not rv.args
                )
                or isinstance(rv, AwaitExpr)
                or (entering is not None and rv is entering)
            )
            for lv in n.lvalues:
                simple = isinstance(lv, NameExpr) or (
                    rv is entering and isinstance(lv, (TupleExpr, ListExpr))
                )
                for name in _target_names(lv):
                    if name in bound and not (take_back and simple):
                        bound[name] = False
        elif isinstance(
            n, (ForStmt, WithStmt, DelStmt, AssignmentExpr, OperatorAssignmentStmt, TryStmt)
        ):
            for name in _bound_by(n):
                if name in bound:
                    bound[name] = False
        todo.extend(child_nodes(n))
    return tuple(n for n in names if bound[n])


def _target_names(lv: Expression) -> list[str]:
    out: set[str] = set()
    target_names(lv, out)
    return sorted(out)


def _bound_by(n: Node) -> list[str]:
    if isinstance(n, ForStmt):
        return _target_names(n.index)
    if isinstance(n, WithStmt):
        return [x for t in n.target if t is not None for x in _target_names(t)]
    if isinstance(n, DelStmt):
        return _target_names(n.expr)
    if isinstance(n, AssignmentExpr):
        return _target_names(n.target)
    if isinstance(n, OperatorAssignmentStmt):
        return _target_names(n.lvalue)
    if isinstance(n, TryStmt):
        return [v.name for v in n.vars if v is not None]
    return []


#: Iterator types whose one type argument is what each step yields.
_YIELDING: Final = frozenset(
    {"typing.Iterator", "typing.Generator", "collections.abc.Iterator", "collections.abc.Generator"}
)


def generated_transfers(call: Expression) -> tuple[str, tuple[int, ...], int] | None:
    """Where ``call`` calls one of the program's generator functions declared to yield
    transfers (``-> Iterator[nx.Transfer[Host]]``, or tuples with transfers in them,
    ``Iterator[tuple[int, nx.Transfer[Host]]]``): its name, the positions of the
    transfers in the yielded tuple and its length (``()``, 0 for a transfer). Each
    transfer it yields is the loop's alone (no container keeps it). None otherwise."""
    if not isinstance(call, CallExpr) or not isinstance(call.callee, (NameExpr, MemberExpr)):
        return None
    node = call.callee.node
    fn = node.func if isinstance(node, Decorator) else node
    if not isinstance(fn, FuncDef) or not fn.is_generator or fn.is_coroutine:
        return None
    if isinstance(node, Decorator) or fn.fullname.split(".")[0] == "numbaxfer":
        return None
    sig = fn.type
    ret = get_proper_type(sig.ret_type) if isinstance(sig, CallableType) else None
    if not isinstance(ret, Instance) or ret.type.fullname not in _YIELDING or not ret.args:
        return None
    yielded = ret.args[0]
    if ret_kind(yielded) == "producer":
        items: tuple[int, ...] = ()
        arity = 0
    else:
        items = transfer_items(yielded)
        tup = get_proper_type(yielded)
        if not items or not isinstance(tup, TupleType):
            return None
        arity = len(tup.items)
    return (fn.name, items, arity) if yields_made(fn, items) else None


@by_node
def yield_borrows(fn: FuncItem) -> tuple[tuple[str, str, int], ...]:
    """The owners a generator keeps borrowed while it is suspended at a ``yield``
    inside ``with p.lend()`` or ``with p.write()`` (``p`` a path in ``fn``'s own
    names: ``self.frame``, a parameter): (path, "lend" or "write", the with's line)."""
    out: list[tuple[str, str, int]] = []
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, ClassDef)):
            continue
        if isinstance(n, WithStmt) and _has_yield(n.body):
            out.extend((owner, kind, n.line) for owner, kind in _with_lends(n))
        todo.extend(child_nodes(n))
    return tuple(out)


def _with_lends(n: WithStmt) -> list[tuple[str, str]]:
    """The ``with p.lend()`` / ``with p.write()`` contexts of ``n``: (path, method)."""
    out: list[tuple[str, str]] = []
    for e in n.expr:
        if (
            isinstance(e, CallExpr)
            and not e.args
            and isinstance(e.callee, MemberExpr)
            and e.callee.name in BORROW_BREAKERS
            and (chain := path_chain(e.callee.expr)) is not None
        ):
            out.append((chain[-1][0], e.callee.name))
    return out


def lent_at_every_yield(fn: FuncItem) -> frozenset[str]:
    """The paths that every ``yield`` of ``fn`` is inside a ``with p.lend()`` (or
    ``p.write()``) of: what a ``@contextmanager`` keeps borrowed for its block."""
    found: list[frozenset[str]] = []
    todo: list[tuple[Node, frozenset[str]]] = [(n, frozenset()) for n in fn.body.body]
    while todo:
        n, lent = todo.pop()
        if isinstance(n, (FuncItem, ClassDef)):
            continue
        if isinstance(n, (YieldExpr, YieldFromExpr)):
            found.append(lent)
        if isinstance(n, WithStmt):
            lent = lent | {owner for owner, _ in _with_lends(n)}
        todo.extend((c, lent) for c in child_nodes(n))
    return frozenset.intersection(*found) if found else frozenset()


def _has_yield(body: Block) -> bool:
    todo: list[Node] = [body]
    while todo:
        n = todo.pop()
        if isinstance(n, (YieldExpr, YieldFromExpr)):
            return True
        if not isinstance(n, (FuncItem, ClassDef)):
            todo.extend(child_nodes(n))
    return False


@by_node
def _yields(fn: FuncItem) -> tuple[Expression | None, ...]:
    """What the ``yield`` expressions of ``fn`` (not of functions nested in it) yield;
    a ``yield from`` counts as None (not known)."""
    out: list[Expression | None] = []
    todo: list[Node] = [fn.body]
    while todo:
        n = todo.pop()
        if isinstance(n, YieldFromExpr):
            out.append(None)
        elif isinstance(n, YieldExpr):
            out.append(n.expr)
        if not isinstance(n, (FuncItem, ClassDef)) or n is fn:
            todo.extend(child_nodes(n))
    return tuple(out)


def yields_made(fn: FuncItem, items: tuple[int, ...]) -> bool:
    """Does each ``yield`` of ``fn`` make its transfers there (``yield s.download(...)``,
    ``yield c, s.upload(...)``) rather than yield one some container also keeps
    (``for t in ups: yield t``)?"""
    for y in _yields(fn):
        parts: list[Expression] = []
        if y is None:
            return False
        if not items:
            parts = [y]
        elif isinstance(y, TupleExpr) and all(i < len(y.items) for i in items):
            parts = [y.items[i] for i in items]
        else:
            return False
        if not all(isinstance(p, CallExpr) for p in parts):
            return False
    return True
