"""Which field of an object an argument of its constructor becomes: of a dataclass or
NamedTuple (``Slot(host=h)``: ``slot.host`` is ``h``, the same object), and of a class
whose ``__init__`` stores a parameter as it is (``self.view = view``)."""

from __future__ import annotations

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    AssignmentStmt,
    CallExpr,
    Expression,
    FuncDef,
    MemberExpr,
    NameExpr,
    Node,
    RefExpr,
    SuperExpr,
    TypeInfo,
    Var,
)

from .memo import by_node
from .syntax import bound_and_declared, child_nodes, has_syntax, stored_targets


def record_fields(info: TypeInfo) -> list[str] | None:
    """The constructor's parameters, in order, of a dataclass or NamedTuple (None for
    other classes: what their ``__init__`` does with an argument is not known here)."""
    data = info.metadata.get("dataclass")
    if isinstance(data, dict):
        attrs = data.get("attributes")
        if isinstance(attrs, list):
            return [
                str(a["name"])
                for a in attrs
                if isinstance(a, dict)
                and isinstance(a.get("name"), str)
                and a.get("is_in_init", True)
                and not a.get("kw_only", False)
            ] + [
                str(a["name"])
                for a in attrs
                if isinstance(a, dict)
                and isinstance(a.get("name"), str)
                and a.get("is_in_init", True)
                and a.get("kw_only", False)
            ]
        return None
    tup = info.metadata.get("namedtuple")
    if isinstance(tup, dict):
        fields = tup.get("fields")
        if isinstance(fields, list) and all(isinstance(f, str) for f in fields):
            return [str(f) for f in fields]
    return None


def _mentions_self(n: Node, me: str) -> bool:
    """Does ``n`` call a method of ``me``, pass it on, or call ``super()``: code that
    may rebind what ``__init__`` stored?"""
    todo: list[Node] = [n]
    while todo:
        x = todo.pop()
        if isinstance(x, CallExpr):
            callee = x.callee
            if isinstance(callee, MemberExpr) and (
                isinstance(callee.expr, SuperExpr)
                or (isinstance(callee.expr, NameExpr) and callee.expr.name == me)
            ):
                return True
            if any(isinstance(a, NameExpr) and a.name == me for a in x.args):
                return True
        todo.extend(child_nodes(x))
    return False


@by_node
def init_fields(info: TypeInfo) -> tuple[tuple[str, str], ...]:
    """(parameter, attribute) for each ``self.<attribute> = <parameter>`` of the class's
    own ``__init__`` (inherited ones too) that is a statement of its body (no test, loop
    or handler around it), the attribute stored once and not a property, the parameter
    never rebound, and no later statement calling a method of ``self``, passing it on
    or calling ``super()``: after the constructor the attribute is the argument."""
    init = info.get_method("__init__")
    if not isinstance(init, FuncDef) or not has_syntax(init) or not init.arguments:
        return ()
    if not init.body.body:
        return ()
    me = init.arguments[0].variable.name
    params = {a.variable.name for a in init.arguments[1:]}
    bound = bound_and_declared(init.body)[0]
    stores: dict[str, int] = {}  # attribute -> how many statements store into it
    todo: list[Node] = [init.body]
    while todo:
        n = todo.pop()
        for t in stored_targets(n):
            if isinstance(t, MemberExpr) and isinstance(t.expr, NameExpr) and t.expr.name == me:
                stores[t.name] = stores.get(t.name, 0) + 1
        todo.extend(child_nodes(n))
    body = init.body.body
    out: list[tuple[str, str]] = []
    for i, st in enumerate(body):
        if not isinstance(st, AssignmentStmt) or len(st.lvalues) != 1:
            continue
        lv, param = st.lvalues[0], st.rvalue
        if not (
            isinstance(lv, MemberExpr)
            and isinstance(lv.expr, NameExpr)
            and lv.expr.name == me
            and isinstance(param, NameExpr)
            and param.name in params
        ):
            continue
        attr = lv.name
        sym = info.get(attr)
        if param.name in bound or stores.get(attr) != 1 or (sym and not isinstance(sym.node, Var)):
            continue
        if any(_mentions_self(later, me) for later in body[i + 1 :]):
            continue
        out.append((param.name, attr))
    return tuple(out)


def _init_parameters(info: TypeInfo) -> list[str]:
    init = info.get_method("__init__")
    if not isinstance(init, FuncDef) or not has_syntax(init):
        return []
    return [a.variable.name for a in init.arguments[1:]]


def constructor_fields(call: CallExpr) -> list[tuple[str, Expression]]:
    """``Slot(h, dev=d)`` -> [("host", h), ("dev", d)] for a record class ``Slot``; for
    another class, the arguments its ``__init__`` stores as they are (``init_fields``)."""
    callee = call.callee
    if not isinstance(callee, RefExpr) or not isinstance(callee.node, TypeInfo):
        return []
    names = record_fields(callee.node)
    if names is None:
        kept = dict(init_fields(callee.node))
        if not kept:
            return []
        params = _init_parameters(callee.node)
        mapped = _map(call, params)
        return [(kept[p], arg) for p, arg in mapped if p in kept]
    if not names:
        return []
    return _map(call, names)


def _map(call: CallExpr, names: list[str]) -> list[tuple[str, Expression]]:
    """The call's arguments by the parameter names ``names`` (positional, then by
    keyword); none where ``*args`` or ``**kwargs`` is passed."""
    out: list[tuple[str, Expression]] = []
    pos = 0
    for arg, kind, name in zip(call.args, call.arg_kinds, call.arg_names, strict=True):
        if kind == ARG_POS:
            if pos < len(names):
                out.append((names[pos], arg))
            pos += 1
        elif kind == ARG_NAMED and name in names:
            out.append((name, arg))
        else:
            return []  # *args / **kwargs: not mapped
    return out
