"""Facts: what a call does to ownership (moves arguments, starts a transfer, lends,
waits), from the plugin hook (confirmed) or predicted from the callee's declared
signature (used to word messages, never to report)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TypeAlias

from mypy.expandtype import expand_type_by_instance
from mypy.nodes import (
    ARG_NAMED,
    ARG_NAMED_OPT,
    ARG_OPT,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    CallExpr,
    Decorator,
    Expression,
    FuncDef,
    FuncItem,
    IndexExpr,
    IntExpr,
    MemberExpr,
    NameExpr,
    Node,
    OverloadedFuncDef,
    TypeInfo,
    Var,
)
from mypy.types import (
    CallableType,
    Instance,
    NoneType,
    Overloaded,
    TupleType,
    Type,
    TypeAliasType,
    UninhabitedType,
    get_proper_type,
)

from .memo import by_node
from .names import (
    CONSUMED,
    GENERATOR_CMS,
    GENERATOR_TYPES,
    HANDLES,
    INERT_TYPES,
    LEND_SCOPE,
    LENT,
    MAPPING,
    PRODUCERS,
    TRANSFER,
    WAITS,
)

# --------------------------------------------------------------------------------------
# Facts: what a call does, from the plugin hook (confirmed) or from resolving the
# callee through semantic analysis (predicted; used to word, never to report)
# --------------------------------------------------------------------------------------


class Fact:
    __slots__ = (
        "arity",
        "called",
        "callee",
        "confirmed",
        "consumed",
        "end",
        "free",
        "handles",
        "holder",
        "id",
        "items",
        "lend",
        "line",
        "mapping",
        "noreturn",
        "origin",
        "param",
        "parts",
        "producer",
        "via",
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
        #: For a move made inside a method (``classes.py``): the method ("Cls.m()")...
        self.origin = ""
        #: ... and the attribute of the object that holds the transfer ("" if none).
        self.holder = ""
        #: The producer is ``Stream.map``: its result is a Mapping (``device`` ends with it).
        self.mapping = False
        #: A call returning a tuple with transfers in it (``-> tuple[Host, Transfer[Host]]``):
        #: the tuple's length and the positions of its transfers; unpacking the result
        #: binds each of them to a transfer of its own (``parts``, made by the engine).
        self.items: tuple[int, ...] = ()
        self.arity = 0
        self.parts: list[Fact] = []
        #: For a move made inside a called function through one of its inputs
        #: (``inputs.py``): the parameter, not declared ``Consumed``, that took the
        #: argument ("" if none) ...
        self.param = ""
        #: ... or True where it took a variable of the caller's scope it reads (a global,
        #: or a variable of the enclosing function); and the call as written ("u.push").
        self.free = False
        self.called = ""
        #: How the path came to be moved, where no call here moved it (``inputs.py``:
        #: "SlotPool.acquire() returned it with ..."); "" for a move by a call.
        self.via = ""

    def relevant(self) -> bool:
        return bool(self.consumed) or self.producer or self.lend or self.wait or bool(self.items)

    def signature(self) -> tuple[object, ...]:
        return (
            self.consumed,
            self.handles,
            self.producer,
            self.lend,
            self.wait,
            self.noreturn,
            self.items,
        )

    def confirm(self) -> None:
        """mypy has checked the call: its transfers, the unpacked ones too, are reported."""
        self.confirmed = True
        for part in self.parts:
            part.confirmed = True


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


def is_consumed(t: Type) -> bool:
    return _consumed_alias(t) is not None


def _owned_handle(t: Type) -> TypeInfo | None:
    """The handle class of an Owned handle type (``PinnedArray[Owned, DT]``), else None."""
    p = get_proper_type(t)
    if not isinstance(p, Instance) or not p.args or is_lent_handle(p):
        return None
    handle = next((b for b in p.type.mro if b.fullname in HANDLES), None)
    return handle


def implied_consumed(sig: CallableType) -> int | None:
    """For a call through a callable *value* (a parameter, variable or attribute typed
    ``Callable[[Host], nx.Transfer[Host]]``, whose body the checker cannot see): the one
    parameter of the handle class the returned transfer gives back, not declared
    ``nx.Consumed``. Such a callable moves it (``partial(s.upload, to=dev)``, ``lambda h:
    s.download(dev, into=h)``): a Transfer[X] holds the X it hands back. None where the
    result is no Transfer of a handle, or where several parameters could be the one."""
    ret = get_proper_type(sig.ret_type)
    if not isinstance(ret, Instance) or ret.type.fullname != TRANSFER or not ret.args:
        return None
    given = _owned_handle(ret.args[0])
    if given is None or any(is_consumed(t) for t in sig.arg_types):
        return None
    hits = [
        i
        for i, (t, kind) in enumerate(zip(sig.arg_types, sig.arg_kinds, strict=True))
        if kind.is_positional() and _owned_handle(t) is given
    ]
    return hits[0] if len(hits) == 1 else None


def calls_a_value(call: CallExpr) -> bool:
    """Is ``call``'s callee a callable value (a parameter, a variable, an attribute),
    not a function, method or class the checker can look into?"""
    callee = call.callee
    if isinstance(callee, NameExpr):
        return isinstance(callee.node, Var)
    if isinstance(callee, MemberExpr):
        if callee.node is not None:
            return isinstance(callee.node, Var)
        base = get_proper_type(static_type(callee.expr))
        if isinstance(base, TupleType):
            base = base.partial_fallback
        sym = base.type.get(callee.name) if isinstance(base, Instance) else None
        return sym is not None and isinstance(sym.node, Var)
    return False


def first_attr(rest: str) -> str:
    """``shape`` of ``shape[0]`` and of ``dtype.itemsize``'s ``dtype``: what a read of
    metadata starts with (metadata of metadata touches no memory either)."""
    for i, ch in enumerate(rest):
        if ch in ".[":
            return rest[:i]
    return rest


def is_handle(t: Type) -> bool:
    alias = _consumed_alias(t)
    if alias is not None and alias.args:
        t = alias.args[0]
    p = get_proper_type(t)
    # Subclasses count (MappedArray is a PinnedArray); so do transfers handed on to a
    # chained transfer or a pool: reading their metadata afterwards touches no memory.
    return isinstance(p, Instance) and any(
        b.fullname in HANDLES or b.fullname in PRODUCERS for b in p.type.mro
    )


def is_inert(t: Type) -> bool:
    """A type whose values hold no handle, transfer or lend (``int``, ``str``, None)."""
    p = get_proper_type(t)
    return isinstance(p, NoneType) or (isinstance(p, Instance) and p.type.fullname in INERT_TYPES)


def is_transfer(t: Type | None) -> bool:
    """A Transfer[X] with X not None (a declared or already inferred type)."""
    if t is None:
        return False
    p = get_proper_type(t)
    if isinstance(p, Instance) and p.type.fullname in PRODUCERS:
        return not (p.args and isinstance(get_proper_type(p.args[0]), NoneType))
    return False


def is_lent_handle(t: Type) -> bool:
    """``PinnedArray[Lent, DT]`` (``DeviceArray``, ``Stream``, subclasses): a borrowed handle."""
    p = get_proper_type(t)
    if not isinstance(p, Instance) or not p.args:
        return False
    cap = get_proper_type(p.args[0])
    return (
        any(b.fullname in HANDLES for b in p.type.mro)
        and isinstance(cap, Instance)
        and cap.type.fullname == LENT
    )


def ret_kind(t: Type) -> str:
    """'producer' for Transfer[X] with X not None (and a Mapping, completed by wait()
    like one), 'lend' (also a ``@contextmanager`` generator that yields a Lent handle:
    its block lends, and the handle expires with it), 'noreturn' or ''."""
    p = get_proper_type(t)
    if isinstance(p, Instance):
        name = p.type.fullname
        if name in PRODUCERS:
            if p.args and isinstance(get_proper_type(p.args[0]), NoneType):
                return ""
            return "producer"
        if name == MAPPING:
            return "producer"
        if name == LEND_SCOPE or (name in GENERATOR_CMS and p.args and is_lent_handle(p.args[0])):
            return "lend"
    elif isinstance(p, UninhabitedType):
        return "noreturn"
    return ""


def transfer_items(t: Type) -> tuple[int, ...]:
    """The positions of the transfers in a tuple type (``tuple[Host, Transfer[Host]]``
    -> (1,)); () for any other type."""
    p = get_proper_type(t)
    if not isinstance(p, TupleType):
        return ()
    return tuple(i for i, item in enumerate(p.items) if ret_kind(item) == "producer")


@by_node
def signature_matters(t: Type) -> bool:
    """Can a call of a callee declared ``t`` move, hand on or lend (a ``Consumed``
    parameter, a Transfer, Mapping or lend result, or not a plain signature)?"""
    p = get_proper_type(t)
    if isinstance(p, Overloaded):
        return any(signature_matters(item) for item in p.items)
    if not isinstance(p, CallableType):
        return True  # not a plain signature: look at the calls
    return (
        ret_kind(p.ret_type) in ("producer", "lend")
        or any(is_consumed(a) for a in p.arg_types)
        or bool(transfer_items(p.ret_type))
    )


def declared_types(node: Node) -> tuple[Type | None, ...]:
    """The declared signature(s) behind a callee symbol (None: not known yet)."""
    if isinstance(node, TypeInfo):
        out: list[Type | None] = []
        for name in ("__init__", "__new__", "__call__"):
            method = node.get_method(name)
            if method is not None:
                out.extend(declared_types(method))
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


def short_name(fullname: str, is_method: bool) -> str:
    parts = fullname.split(".")
    return ".".join(parts[-2:]) if is_method and len(parts) >= 2 else parts[-1]


WAIT_SIGNATURE: Final[tuple[object, ...]] = ((), True, False, False, True, False, ())


def fact_from_signature(
    call: CallExpr,
    arg_types: Sequence[Type],
    ret_type: Type,
    formal_actuals: Sequence[Sequence[int]],
    callee: str,
    confirmed: bool,
    is_wait: bool,
    implied: int | None = None,
) -> Fact:
    """``implied``: a parameter taken as consumed though not declared so
    (``implied_consumed``)."""
    fact = Fact(call, callee, confirmed)
    consumed: list[int] = []
    for i, t in enumerate(arg_types):
        if i < len(formal_actuals) and (i == implied or is_consumed(t)):
            consumed.extend(formal_actuals[i])
            if not is_handle(t):
                fact.handles = False
    fact.consumed = tuple(sorted(set(consumed)))
    kind = ret_kind(ret_type)
    fact.producer = kind == "producer"
    p = get_proper_type(ret_type)
    fact.mapping = isinstance(p, Instance) and p.type.fullname == MAPPING
    fact.lend = kind == "lend"
    fact.noreturn = kind == "noreturn"
    fact.wait = is_wait
    fact.items = transfer_items(ret_type)
    if fact.items:
        tup = get_proper_type(ret_type)
        fact.arity = len(tup.items) if isinstance(tup, TupleType) else 0
    return fact


def map_actuals(call: CallExpr, sig: CallableType, skip_self: bool) -> list[list[int]] | None:
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


def _called_as(obj: Instance) -> CallableType | None:
    """The signature a call of an object of ``obj``'s class has: its ``__call__`` (a
    method, or an attribute typed by the class's type variables, as pytest's
    ``_WithException.__call__: _F``), bound to ``obj``'s type arguments."""
    sym = obj.type.get("__call__")
    node = sym.node if sym is not None else None
    t = node.type if isinstance(node, (Var, FuncDef)) else None
    if t is None or obj.type.module_name == "builtins":
        return None
    p = get_proper_type(expand_type_by_instance(t, obj))
    if isinstance(p, CallableType) and isinstance(node, FuncDef):
        return p.copy_modified(
            arg_types=p.arg_types[1:], arg_kinds=p.arg_kinds[1:], arg_names=p.arg_names[1:]
        )
    return p if isinstance(p, CallableType) else None


def _node_callable(node: Node | None) -> tuple[CallableType | None, bool]:
    """The signature of a function-like symbol, and whether it is a plain function."""
    if isinstance(node, (Decorator, Var)):
        t = node.var.type if isinstance(node, Decorator) else node.type
        p = get_proper_type(t) if t is not None else None
        if isinstance(p, Instance):  # a callable object: ``pytest.skip`` (its __call__)
            called = _called_as(p)  # (only its NoReturn matters: ``ret_kind``)
            return (
                called if called is not None and ret_kind(called.ret_type) == "noreturn" else None
            ), False
        if isinstance(node, Var):
            return None, False
        return (p if isinstance(p, CallableType) else None), False
    if isinstance(node, (FuncDef, OverloadedFuncDef)):
        t = node.type
        if isinstance(t, CallableType):
            return t, True
        if isinstance(t, Overloaded) and t.items:
            return t.items[0], True
    return None, False


def static_type(e: Expression) -> Type | None:
    """The declared or already inferred type of a simple expression, if known."""
    if isinstance(e, NameExpr) and isinstance(e.node, Var):
        return e.node.type
    if isinstance(e, MemberExpr):
        base = static_type(e.expr)
        p = get_proper_type(base) if base is not None else None
        if isinstance(p, TupleType):  # a NamedTuple: its fields are its class's
            p = p.partial_fallback
        if isinstance(p, Instance):
            sym = p.type.get(e.name)
            if sym is not None and isinstance(sym.node, Var):
                return sym.node.type
    if isinstance(e, IndexExpr):  # ``jobs[0]``, ``self.pending[k]``: the element type
        base = static_type(e.base)
        p = get_proper_type(base) if base is not None else None
        if isinstance(p, TupleType):
            i = e.index.value if isinstance(e.index, IntExpr) else None
            return p.items[i] if i is not None and -len(p.items) <= i < len(p.items) else None
        if isinstance(p, Instance):
            name = p.type.fullname
            if name in _INDEXED_AS_ARGUMENT and len(p.args) == 1:
                return p.args[0]
            if name in _MAPPINGS and len(p.args) == 2:
                return p.args[1]
    return None


#: Generic classes whose element (by an int index) is of their one type argument ...
_INDEXED_AS_ARGUMENT: Final = frozenset(
    {
        "builtins.list",
        "builtins.tuple",
        "collections.deque",
        "typing.Sequence",
        "typing.MutableSequence",
    }
)
#: ... and those whose value (by a key) is of their second.
_MAPPINGS: Final = frozenset(
    {
        "builtins.dict",
        "collections.defaultdict",
        "collections.OrderedDict",
        "typing.Mapping",
        "typing.MutableMapping",
    }
)


#: Generic classes whose one type argument is the type of what iterating them gives.
_ITERATED_AS_ARGUMENT: Final = frozenset(
    {
        "builtins.list",
        "builtins.set",
        "builtins.frozenset",
        "builtins.tuple",
        "collections.deque",
        "typing.Iterable",
        "typing.Iterator",
        "typing.Sequence",
        "typing.MutableSequence",
        "typing.Collection",
        "typing.AbstractSet",
        "typing.MutableSet",
    }
)


def element_class(seq: Expression) -> TypeInfo | None:
    """The class of what ``for x in seq`` binds, where mypy's type of ``seq`` says it
    (``list[Transfer[...]]``, ``tuple[Host, ...]``)."""
    t = static_type(seq)
    p = get_proper_type(t) if t is not None else None
    if not isinstance(p, Instance) or len(p.args) != 1:
        return None
    if p.type.fullname not in _ITERATED_AS_ARGUMENT:
        return None
    arg = get_proper_type(p.args[0])
    return arg.type if isinstance(arg, Instance) else None


_UNKNOWN: Final = "unknown"
InferInfo: TypeAlias = Callable[[str], TypeInfo | None]


def _receiver_info(
    e: Expression, infer: InferInfo, untyped: list[Var] | None = None
) -> TypeInfo | str | None:
    """The class of a method call's receiver: from mypy where it has inferred it already,
    else from the analysis' own record of ``name = f(...)``; _UNKNOWN if not known yet
    (then the variable whose type mypy has not inferred is added to ``untyped``)."""
    t = static_type(e)
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, TupleType):  # a NamedTuple: its methods are its class's
        p = p.partial_fallback
    if isinstance(p, Instance):
        return p.type
    if p is not None:
        return None  # known, and not a class instance
    if isinstance(e, NameExpr):
        info = infer(e.name)
        if info is not None:
            return info
        if isinstance(e.node, Var) and e.node.type is None:
            if untyped is not None:
                untyped.append(e.node)
            return _UNKNOWN
    elif isinstance(e, MemberExpr):
        # ``self.s.upload(...)`` before mypy has inferred ``self.s = nx.stream()`` (a
        # class summary built while an earlier method is checked): not known *yet*.
        # The base may be known only to the analysis (``self`` in a summary's body).
        base = _receiver_info(e.expr, infer, untyped)
        if isinstance(base, str):
            return base
        sym = base.get(e.name) if base is not None else None
        if sym is not None and isinstance(sym.node, Var):
            if sym.node.type is None:
                if untyped is not None:
                    untyped.append(sym.node)
                return _UNKNOWN
            p = get_proper_type(sym.node.type)
            return p.type if isinstance(p, Instance) else None
    return None


def result_info(call: CallExpr, infer: InferInfo) -> TypeInfo | None:
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


def predict_fact(
    call: CallExpr, infer: InferInfo, untyped: list[Var] | None = None
) -> Fact | str | None:
    """What a call not yet checked by mypy will do, from the declared signature of its
    callee (None: nothing of interest; _UNKNOWN: its receiver's type is not known yet,
    and the variable lacking its type is added to ``untyped``)."""
    callee = call.callee
    sig: CallableType | None = None
    skip_self = False
    name = ""
    if isinstance(callee, (NameExpr, MemberExpr)) and callee.node is not None:
        node = callee.node
        if isinstance(node, TypeInfo):
            return None
        sig, _plain = _node_callable(node)
        name = short_name(callee.fullname or callee.name, False)
    elif isinstance(callee, MemberExpr):
        info = _receiver_info(callee.expr, infer, untyped)
        if isinstance(info, str):
            return _UNKNOWN
        if info is not None:
            method = info.get_method(callee.name)
            sig, plain = _node_callable(method)
            is_static = isinstance(method, FuncDef) and method.is_static
            skip_self = plain and not is_static
            name = f"{info.name}.{callee.name}"
            if sig is not None and f"{info.fullname}.{callee.name}" in WAITS:
                fact = Fact(call, name, False)
                fact.wait = True
                return fact
    if sig is None:
        return None
    if not signature_matters(sig) and ret_kind(sig.ret_type) != "noreturn":
        return None  # the common case: nothing to predict
    actuals = map_actuals(call, sig, skip_self)
    if actuals is None:
        return None
    arg_types = sig.arg_types[1:] if skip_self else sig.arg_types
    return fact_from_signature(call, arg_types, sig.ret_type, actuals, name, False, False)


def sends_handles(fn: object) -> bool:
    """Is ``fn`` a generator declared to take a numbaxfer handle back through ``send()``
    (``-> Generator[Host, Host, None]``)?"""
    sig = fn.type if isinstance(fn, FuncItem) else None
    ret = get_proper_type(sig.ret_type) if isinstance(sig, CallableType) else None
    if not isinstance(ret, Instance) or ret.type.fullname not in GENERATOR_TYPES:
        return False
    if len(ret.args) < 2:
        return False
    sent = get_proper_type(ret.args[1])
    return isinstance(sent, Instance) and sent.type.fullname in HANDLES
