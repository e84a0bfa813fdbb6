"""Ownership through objects: what each method of a class does to the attributes of
its ``self`` (a per-class summary), applied at calls ``obj.method()`` and at the entry
of methods.

A method's summary comes from one run of the data-flow engine over its body, in which
every *candidate* attribute (one the class passes to a call, waits on, or assigns from a
call) starts out moved by a sentinel: a read of the sentinel is a read of the attribute
before the method rebinds it (``reads``), an attribute whose sentinel is gone on some
path is rebound (``restores``), other moves left at the exit are the method's ``moves``,
and a transfer left in an attribute is ``holders``. Calls of other methods of ``self``
inside a body apply their summaries, so reads and moves are transitive.

Applied at ``obj.m()`` in any scope: m's reads are uses of ``obj.<attr>`` at the call;
then its restores rebind, its moves move and its holders hold a pending transfer.

At the entry of a method B, ``self.x`` is usable (nothing is known about the order of
calls) except where the class shows a protocol: a method A != B leaves ``self.x`` moved
with its transfer stored in an attribute ``self.t``, and no method but B (and
``__init__``) ever rebinds ``self.x``: then B must take it back itself, and a read of
``self.x`` in B before ``self.x = self.t.wait()`` is reported ("may be used").

Summaries are cached per class full name and a cheap fingerprint of its methods'
positions (not on node identity: dmypy re-analyses nodes in place), and not cached at
all while a type they depend on is not inferred yet.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, cast

from mypy.nodes import (
    ARG_NAMED,
    ARG_OPT,
    ARG_POS,
    AssignmentStmt,
    AwaitExpr,
    CallExpr,
    ClassDef,
    Context,
    Decorator,
    DelStmt,
    Expression,
    FakeInfo,
    FuncDef,
    FuncItem,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RefExpr,
    SuperExpr,
    TypeInfo,
    Var,
    YieldExpr,
)
from mypy.types import CallableType, Instance, TupleType, UnionType, get_proper_type

from .blocks import deferred_call
from .elements import ELEMENT, MARK, container_of, mark_of, marked_container
from .facts import Fact, is_handle, is_inert, is_transfer, map_actuals, ret_kind
from .flow import Analysis
from .guards import Guards, assigned_attrs, wait_calls
from .inputs import Inputs, super_method, take_backs
from .names import CLOSED, ONE_DONE, STREAM, in_library
from .paths import path_chain, path_extends
from .scope import SummaryScope
from .state import OWN, OWN_SET, TRANSFER_KINDS, State, completed_before
from .syntax import (
    child_nodes,
    drain_on_every_path,
    every_iteration,
    has_syntax,
    named_once,
    stored_targets,
)

#: Classes with more methods than this are not summarised (silence).
MAX_METHODS: Final = 200
#: Incomplete summaries (a type not inferred yet) built per class or function before
#: the last one is kept. One is rebuilt only once mypy has inferred a type it lacked.
MAX_INCOMPLETE: Final = 3
_SENTINEL_LINE: Final = -1


@dataclass(frozen=True)
class Move:
    """A move a method leaves in place on exit, of ``attr`` (relative to ``self``)."""

    attr: str
    callee: str  # "Stream.upload"
    line: int
    origin: str  # the method that made it, "Renderer.submit"
    producer: bool
    handles: bool
    holder: str  # the attribute holding its transfer ("" if none)
    returned: bool  # the method returns the transfer (no holder, declared Transfer result)
    maybe: bool  # on some paths only


@dataclass
class MethodSummary:
    reads: set[str] = field(default_factory=set)
    #: rebound on some path (then possibly moved again: see ``moves``)
    restores: set[str] = field(default_factory=set)
    #: left usable on some path (rebound and not moved again)
    frees: set[str] = field(default_factory=set)
    moves: dict[str, Move] = field(default_factory=dict)
    holders: dict[str, Move] = field(default_factory=dict)
    #: holders whose transfer (the one they hold at entry) the method completes on some
    #: path (``self.out = self.pending.wait()``) ...
    waits: set[str] = field(default_factory=set)
    #: ... and those of them it leaves holding that completed transfer (not rebound)
    completes: set[str] = field(default_factory=set)
    #: ... and those whose every ``wait()`` a test of the object guards (``if not
    #: self.pending.completed``; a flag the method sets): a call finding the transfer
    #: completed does not complete it again (``guards.py``)
    guarded_waits: set[str] = field(default_factory=set)
    #: attr -> the attribute whose entry value it holds at the end (``self.front,
    #: self.back = self.back, self.front``): the caller's values move along
    copies: dict[str, str] = field(default_factory=dict)
    #: Rings (``self.bufs[k]`` moved, its transfer kept in ``self.pending[k]``, ``k`` a
    #: local index): containers an element of which is read before the method stores
    #: into the container, with the containers an element of which it read before ...
    elem_reads: dict[str, frozenset[str]] = field(default_factory=dict)
    #: ... containers it stores into, or hands on, on some path (the elements may be back)
    elem_stores: set[str] = field(default_factory=set)
    #: ... and containers it leaves with an element moved whose transfer an element of
    #: another attribute holds (at the caller: *some* element may be moved)
    elem_moves: dict[str, Move] = field(default_factory=dict)
    #: ... and those of them whose element it reads before it takes that element back
    #: (by the same index): the method's own earlier call may have left it moved
    elem_self: set[str] = field(default_factory=set)
    #: attr -> reads of ``self.<attr>`` made, on some path, before the method itself
    #: completes the transfer its holder had at entry (``self.host.read()`` then
    #: ``self.host = self.transfer.wait()``): where some method leaves it moved with
    #: that holder, the method's own take-back shows it may be moved there
    early_reads: dict[str, list[Context]] = field(default_factory=dict)
    #: A function's parameter only: what it completes on every path and leaves there,
    #: relative to the parameter: "" (the transfer it is given), ``[$*]`` (every
    #: element of a container of transfers), ``[$*].transfer`` (that attribute of
    #: every element)
    elem_completes: set[str] = field(default_factory=set)
    #: Containers of transfers (attributes) the method completes every element of, as
    #: it finds them, on some path (``for t in self.pending.values(): t.wait()``, each
    #: iteration waiting): container -> the line of that wait() ...
    elem_drains: dict[str, int] = field(default_factory=dict)
    #: ... and those it completes one element of and leaves holding it, on some path
    #: (``self.thumbs[k] = self.pending[k].wait()``, no ``pop``)
    elem_done: set[str] = field(default_factory=set)
    #: streams (attributes) the method calls a method of that a closed stream refuses,
    #: before it rebinds them (``self.stream.upload(...)``) ...
    stream_uses: set[str] = field(default_factory=set)
    #: ... and those it leaves closed on every path (``self.stream.close()``)
    closes: set[str] = field(default_factory=set)

    def empty(self) -> bool:
        return not (
            self.elem_completes
            or self.elem_drains
            or self.elem_done
            or self.stream_uses
            or self.closes
            or self.reads
            or self.restores
            or self.moves
            or self.holders
            or self.waits
            or self.elem_reads
            or self.elem_stores
            or self.elem_moves
        )


@dataclass
class ClassSummary:
    methods: dict[str, MethodSummary]
    #: attr -> (method, move): moves whose transfer stays in an attribute
    protocol: dict[str, list[tuple[str, Move]]]
    #: attr -> methods other than __init__ that may leave it rebound and usable
    restorers: dict[str, set[str]]
    moved: set[str]  # attributes some method leaves moved
    closed: set[str] = field(default_factory=set)  # streams some method leaves closed

    def entry_moves(self, method: str) -> dict[str, list[Move]]:
        """What ``self.<attr>`` may hold at the entry of ``method`` (the protocol rule)."""
        if method == "__init__":
            return {}
        out: dict[str, list[Move]] = {}
        for attr, moves in self.protocol.items():
            if self.restorers.get(attr, set()) - {method}:
                continue  # another method takes it back: the callers' business
            mine = [mv for m, mv in moves if m != method]
            if mine:
                out[attr] = mine
        return out


def _self_name(fn: FuncDef) -> str | None:
    if fn.is_static or fn.is_class or not has_syntax(fn) or not fn.arguments:
        return None
    return fn.arguments[0].variable.name


def _property_getter(node: Node | None) -> FuncDef | None:
    """The getter of a ``@property`` (with or without a setter), else None."""
    if isinstance(node, OverloadedFuncDef) and node.impl is None and node.items:
        node = node.items[0]  # ``@x.setter`` makes the property an overload
    if isinstance(node, Decorator) and node.var.is_property:
        return node.func
    return None


def _methods(info: TypeInfo) -> dict[str, FuncDef]:
    """The methods summarised: plain ones, and the getters of properties (a read
    ``obj.prop`` is a call of its getter). Other decorated methods are not followed."""
    out: dict[str, FuncDef] = {}
    for s in info.defn.defs.body:
        fn: Node | None = _property_getter(s) or s
        if isinstance(s, OverloadedFuncDef) and fn is s:
            fn = s.impl.func if isinstance(s.impl, Decorator) else s.impl
        if isinstance(fn, Decorator):
            fn = None
        if isinstance(fn, FuncDef) and _self_name(fn) is not None:
            out[fn.name] = fn
    return out


def _candidates(fns: dict[str, FuncDef], param: str | None = None) -> set[str]:
    """First-level attributes of ``self`` (or of the parameter ``param``) a method
    passes to a call, waits on, or assigns from a call: the ones whose state across
    methods can matter."""
    out: set[str] = set()
    for fn in fns.values():
        me = param if param is not None else _self_name(fn)
        if me is None:
            continue
        todo: list[Node] = list(fn.body.body)
        while todo:
            n = todo.pop()
            exprs: list[Expression] = []
            if isinstance(n, CallExpr):
                exprs.extend(n.args)
                if isinstance(n.callee, MemberExpr):
                    exprs.append(n.callee.expr)
            elif isinstance(n, AssignmentStmt):
                if isinstance(n.rvalue, CallExpr):
                    exprs.extend(n.lvalues)
                elif isinstance(n.rvalue, MemberExpr) and all(
                    isinstance(lv, NameExpr) for lv in n.lvalues
                ):
                    exprs.append(n.rvalue)  # ``ls = self.stream``: an alias, used later
            for e in exprs:
                chain = path_chain(e)
                if chain is not None and len(chain) >= 2 and chain[0][0] == me:
                    rest = chain[1][0][len(me or "") + 1 :]
                    if isinstance(chain[1][1], MemberExpr):
                        out.add(rest)
            todo.extend(child_nodes(n))
    return out


def _passed_candidates(
    fn: FuncDef, param: str, seen: set[tuple[str, str]] | None = None
) -> set[str]:
    """The candidates of ``param`` in the functions ``fn`` passes it to whole
    (``self.submit(trial)``, ``reset(trial)``), followed through such calls: a helper
    that rebinds ``trial.pending`` for its caller rebinds it for the caller's caller."""
    seen = set() if seen is None else seen
    if (fn.fullname, param) in seen:
        return set()
    seen.add((fn.fullname, param))
    me = _self_name(fn) if not isinstance(fn.info, FakeInfo) else None
    out: set[str] = set()
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        todo.extend(child_nodes(n))
        if not isinstance(n, CallExpr):
            continue
        callee: Node | None = None
        skip = 0  # the callee's leading parameter the call binds itself (``self``)
        if isinstance(n.callee, NameExpr) and isinstance(n.callee.node, FuncDef):
            callee = n.callee.node
        elif (
            isinstance(n.callee, MemberExpr)
            and isinstance(n.callee.expr, NameExpr)
            and me is not None
            and n.callee.expr.name == me
        ):
            callee, skip = fn.info.get_method(n.callee.name), 1
        if not isinstance(callee, FuncDef) or not has_syntax(callee):
            continue
        names = [a.variable.name for a in callee.arguments[skip:]]
        for i, (arg, kind, kw) in enumerate(zip(n.args, n.arg_kinds, n.arg_names, strict=True)):
            if not (isinstance(arg, NameExpr) and arg.name == param):
                continue
            q = (
                names[i]
                if kind == ARG_POS and i < len(names)
                else kw
                if kind == ARG_NAMED
                else None
            )
            if q is not None and q in names:
                out |= _candidates({callee.name: callee}, q) | _passed_candidates(callee, q, seen)
    return out


def _take_back_pairs(fns: dict[str, FuncDef], param: str | None = None) -> dict[str, str]:
    """attr -> holder for each take-back ``self.host = self.pending.wait()`` (of
    ``param``'s attributes, for a function) the methods make: the class says there
    that ``pending`` holds the transfer of ``host``, even where only its callers start
    that transfer (``b.pending = s.download(b.feat, into=b.host)``)."""
    out: dict[str, str] = {}
    for fn in fns.values():
        me = param if param is not None else _self_name(fn)
        if me is None:
            continue
        todo: list[Node] = list(fn.body.body)
        while todo:
            n = todo.pop()
            if isinstance(n, (FuncItem, Decorator, ClassDef)):
                continue
            for x, h in take_backs(n, me):
                out.setdefault(x, h)
            todo.extend(child_nodes(n))
    return out


def _fingerprint(info: TypeInfo, fns: dict[str, FuncDef]) -> tuple[object, ...]:
    d = info.defn
    return (
        d.line,
        d.end_line,
        tuple((n, f.line, f.column, f.end_line, f.end_column) for n, f in fns.items()),
    )


def _plain_init(fn: FuncDef, cands: set[str]) -> set[str] | None:
    """For an ``__init__`` that only binds attributes (``self.s = s``, ``self.buf =
    nx.pinned_array(n)``): the candidate attributes it binds, which is its whole summary
    (restored and usable: nothing reads, moves, waits or calls through ``self``). None
    where it does more (then it is analysed like any method)."""
    me = _self_name(fn)
    if me is None:
        return None
    assigned: set[str] = set()
    targets: set[int] = set()
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, Decorator, ClassDef, SuperExpr, AwaitExpr, YieldExpr)):
            return None
        if isinstance(n, (OperatorAssignmentStmt, DelStmt)):
            return None
        if isinstance(n, AssignmentStmt):
            for lv in stored_targets(n):
                chain = path_chain(lv)
                if chain is None or chain[0][0] != me:
                    continue
                if len(chain) != 2 or not isinstance(lv, MemberExpr):
                    return None  # ``self.a.b = ...``, ``self.a[i] = ...``: not plain
                targets.add(id(lv))
                if lv.name in cands:
                    assigned.add(lv.name)
        elif isinstance(n, MemberExpr):
            if id(n) in targets:
                continue  # ``self.x = ...``: a binding, not a read
            chain = path_chain(n)
            if chain is not None and chain[0][0] == me:
                return None  # a read of ``self.x`` (or a call through it)
        elif isinstance(n, NameExpr) and n.name == me:
            return None  # ``self`` itself handed on
        todo.extend(child_nodes(n))
    return assigned


def _param_class(fn: FuncDef, name: str) -> TypeInfo | None:
    """The class of the parameter ``name`` of ``fn``, as declared."""
    sig = fn.type
    if not isinstance(sig, CallableType):
        return None
    for arg, t in zip(fn.arguments, sig.arg_types, strict=False):
        if arg.variable.name == name:
            p = get_proper_type(t)
            if isinstance(p, TupleType):  # a NamedTuple: its fields are its class's
                return p.partial_fallback.type
            return p.type if isinstance(p, Instance) else None
    return None


def _is_stream(info: TypeInfo | None, attr: str) -> bool:
    """Is ``attr`` declared a stream (or an optional one) in ``info``?"""
    sym = info.get(attr) if info is not None else None
    t = sym.node.type if sym is not None and isinstance(sym.node, Var) else None
    p = get_proper_type(t) if t is not None else None
    items = p.items if isinstance(p, UnionType) else [p]
    return any(
        isinstance(i := get_proper_type(x), Instance) and i.type.fullname == STREAM
        for x in items
        if x is not None
    )


def _inert_param(fn: FuncDef, name: str) -> bool:
    """Is the parameter ``name`` of ``fn`` declared a type that holds no handle?"""
    sig = fn.type
    if not isinstance(sig, CallableType):
        return False
    for arg, t in zip(fn.arguments, sig.arg_types, strict=False):
        if arg.variable.name == name:
            return is_inert(t)
    return False


def _holds_transfer(info: TypeInfo | None, attr: str) -> bool:
    """Is ``attr`` declared a transfer (or an optional one) in ``info``?"""
    sym = info.get(attr) if info is not None else None
    t = sym.node.type if sym is not None and isinstance(sym.node, Var) else None
    p = get_proper_type(t) if t is not None else None
    items = p.items if isinstance(p, UnionType) else [p]
    return any(is_transfer(i) for i in items if i is not None)


def _may_hold_elements(info: TypeInfo, attr: str) -> bool:
    """Can ``self.attr[k]`` be a handle? Not where ``attr`` is declared a handle, a
    transfer or an inert value (the element sentinel of a class summary is skipped there:
    its bookkeeping is the summaries' main cost). An undeclared attribute may."""
    sym = info.get(attr)
    t = sym.node.type if sym is not None and isinstance(sym.node, Var) else None
    if t is None:
        return True
    p = get_proper_type(t)
    items = p.items if isinstance(p, UnionType) else [p]
    return not all(is_handle(i) or is_transfer(i) or is_inert(i) for i in items)


def _holds_transfers(info: TypeInfo, attr: str) -> bool:
    """Is ``self.attr`` declared a container of transfers (``dict[str, Transfer[H]]``,
    ``list[Transfer[H]]``, a deque)? Undeclared: not known (no drain followed)."""
    sym = info.get(attr)
    t = get_proper_type(sym.node.type) if sym is not None and isinstance(sym.node, Var) else None
    if not isinstance(t, Instance) or not t.args:
        return False
    return any(is_transfer(get_proper_type(a)) for a in t.args)


def _completed_inputs(an: Analysis, final: State, me: str) -> set[str]:
    """What a function completes of its parameter ``me`` on every path out of it and
    leaves there (``MethodSummary.elem_completes``): the transfer itself, every element
    (a loop's completions, ``elements.py``) or an attribute of every element. Nothing
    where it rebinds the parameter, nor what it completes on some paths only (``if
    t.done()``, ``if not t.completed``: the caller may know better)."""
    out: set[str] = set()
    if _rebound(an, me):
        return out
    for key, atoms in final.vals.items():
        if not key.startswith(me):
            continue
        rest = key[len(me) :]
        m = _CONST_ELEMENT.match(rest)
        if m is not None:
            tail = rest[m.end() :]  # ``jobs[0].download``: that element's, by its index
        elif rest and not rest.startswith(MARK):
            continue
        else:
            tail = rest[len(MARK) :]
        if tail and (not tail.startswith(".") or "[" in tail):
            continue
        if atoms and all(a[0] == "W" for a in atoms):
            out.add(rest)
    return out


#: ``[0]``, ``[-1]``, ``['main']``: an element named by a constant index or key (as
#: paths.py spells them).
_CONST_ELEMENT: Final = re.compile(r"\[(?:-?\d+|'[^'\]]*')\]")


def _completes_something(fn: FuncDef) -> bool:
    """Does ``fn``'s own body (not a nested function's) call ``wait()`` or ``await``?
    (A cheap filter before a parameter's summary is built for its completions.)"""
    if fn.is_generator or fn.is_coroutine or fn.is_async_generator:
        return False  # calling it runs nothing yet
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, Decorator, ClassDef)):
            continue
        if (
            isinstance(n, CallExpr)
            and isinstance(n.callee, MemberExpr)
            and n.callee.name == "wait"
            and not n.args
        ):
            return True
        todo.extend(child_nodes(n))
    return False


def _rebound(an: Analysis, path: str) -> bool:
    """Did the analysis rebind ``path`` or a prefix of it (an assignment, ``del``, a
    summary's restore) on some path?"""
    return any(k == path or path_extends(path, k) for k in an.rebound)


def _label(info: TypeInfo, method: str) -> str:
    return f"{info.name}.{method}"


class Objects:
    """The plugin's registry of class summaries (one per plugin instance); the
    ``scope.ObjectModel`` of every scope."""

    def __init__(
        self,
        fine_grained: bool = False,
        foreign: Callable[[str], bool] | None = None,
        modules: Callable[[str], MypyFile | None] | None = None,
    ) -> None:
        #: Is a full name defined where bodies are not summarised (an installed
        #: package, a stub, a module whose errors are discarded)? (the plugin's)
        self.foreign: Callable[[str], bool] = foreign or (lambda _name: False)
        #: One build sees each class once: a complete summary is final (dmypy edits
        #: classes in place, so there the fingerprint is checked every time).
        self._fine_grained = fine_grained
        self._final: dict[str, ClassSummary | None] = {}
        self._cache: dict[str, tuple[tuple[object, ...], ClassSummary | None]] = {}
        #: classes being summarised: their methods summarised so far
        self._building: dict[str, dict[str, MethodSummary | None]] = {}
        self._fns: dict[str, dict[str, FuncDef]] = {}
        #: classes being summarised: their candidate attributes (computed once)
        self._cands: dict[str, set[str]] = {}
        #: classes being summarised: attribute -> the attribute holding its transfer
        self._pairs: dict[str, dict[str, str]] = {}
        #: full name -> summaries built while a type was not inferred yet; past
        #: MAX_INCOMPLETE the last one is kept (a type that never gets inferred, an
        #: ``Any`` receiver, must not make every query rebuild the summary)
        self._attempts: dict[str, int] = {}
        #: full name -> (fingerprint, the last incomplete summary, the variables whose
        #: types it lacked): while mypy has inferred none of them, a rebuild would give
        #: the same summary, so the draft is the answer (a summary stays incomplete)
        self._drafts: dict[str, tuple[tuple[object, ...], object, list[Var]]] = {}
        #: variables met without their types by the summaries being built (shared
        #: with ``inputs``; emptied when no summary is being built)
        self.untyped: list[Var] = []
        self._incomplete = False
        self._depth = 0
        self._fcache: dict[str, tuple[tuple[object, ...], dict[str, MethodSummary] | None]] = {}
        self._ffinal: dict[str, dict[str, MethodSummary] | None] = {}
        #: full name -> is it defined where bodies are never summarised (``_library_call``)
        self._library: dict[str, bool] = {}
        self._fbusy: set[str] = set()
        #: full name -> (fingerprint, candidate attributes): syntax, so computed once
        #: per class (dmypy: again when the class changes)
        self._cand_cache: dict[str, tuple[tuple[object, ...], set[str]]] = {}
        #: What functions and methods do to their inputs (parameters, free variables).
        self.inputs = Inputs(self, fine_grained, self.foreign, modules, self.untyped)
        self._modules = modules

    # -- summaries -------------------------------------------------------------------
    def _class_candidates(
        self, info: TypeInfo
    ) -> tuple[dict[str, FuncDef], tuple[object, ...], set[str]] | None:
        """The methods summarised, their fingerprint and the candidate attributes of a
        class that may have a summary (None: it has none, whatever mypy infers)."""
        if isinstance(info, FakeInfo):
            return None
        name = info.fullname
        if in_library(info.module_name) or self.foreign(name):
            return None  # the library's own classes (their signatures say what they do)
        fns = _methods(info)
        if not fns or len(fns) > MAX_METHODS:
            return None
        fp = _fingerprint(info, fns)
        cached = self._cand_cache.get(name)
        if cached is None or cached[0] != fp:
            cached = (fp, _candidates(fns))
            self._cand_cache[name] = cached
        return (fns, fp, cached[1]) if cached[1] else None

    def may_matter(self, info: TypeInfo) -> bool:
        """Could the class have a summary (methods that pass, wait on or assign from a
        call some attribute of ``self``)? Syntax only: nothing is summarised."""
        if not self._fine_grained and info.fullname in self._final:
            return self._final[info.fullname] is not None
        return self._class_candidates(info) is not None

    def summary(self, info: TypeInfo) -> ClassSummary | None:
        if isinstance(info, FakeInfo):
            return None
        name = info.fullname
        self._idle_reset()
        if not self._fine_grained and name in self._final:
            return self._final[name]
        found = self._class_candidates(info)
        if found is None:
            if not self._fine_grained:
                self._final[name] = None
            return None
        fns, fp, cands = found
        cached = self._cache.get(name)
        if cached is not None and cached[0] == fp:
            return cached[1]
        if self._waiting(name, fp):
            return cast("ClassSummary | None", self._drafts[name][1])
        if name in self._building:
            return None
        self._building[name] = {}
        self._fns[name] = fns
        self._cands[name] = cands
        start = len(self.untyped)
        self._depth += 1
        try:
            # Phase 1: every candidate starts moved by one sentinel. Its moves show which
            # attribute holds the transfer of which (``pairs``); phase 2 starts each such
            # attribute moved by a transfer pending in its holder, so that a method's
            # ``if self.t is not None: self.x = self.t.wait()`` is seen to take it back
            # (no read of self.x on the path where self.t is None).
            methods = self._phase(info, fns, cands, {})
            pairs: dict[str, str] = {}
            for ms in methods.values():
                for attr, mv in ms.moves.items():
                    if mv.producer and mv.holder and "." not in attr and "[" not in attr:
                        pairs.setdefault(attr, mv.holder)
            for attr, h in _take_back_pairs(fns).items():
                if attr in cands and h not in pairs:
                    pairs.setdefault(attr, h)
            if pairs:
                self._building[name] = {}
                methods = self._phase(info, fns, cands, pairs)
            result = _class_summary(methods)
            if self._settled(name, fp, result, start):
                self._cache[name] = (fp, result)
                self._final[name] = result
            return result
        finally:
            self._depth -= 1
            del self._building[name]
            del self._fns[name]
            del self._cands[name]
            self._pairs.pop(name, None)

    def _idle_reset(self) -> None:
        """A query from outside any summary: its incompleteness is its own."""
        if not self._depth:
            self._incomplete = False
            if not self.inputs.busy():
                self.untyped.clear()

    def _waiting(self, name: str, fp: tuple[object, ...]) -> bool:
        """Is the draft of ``name`` still the summary a rebuild would give (mypy has
        inferred none of the types it lacked)? Then it stands, and it is incomplete."""
        draft = self._drafts.get(name)
        if draft is None or draft[0] != fp or self._fine_grained:
            return False
        lacking = draft[2]
        if not lacking or any(v.type is not None for v in lacking):
            return False
        self._incomplete = True
        self.untyped.extend(lacking)
        return True

    def _settled(self, name: str, fp: tuple[object, ...], result: object, start: int) -> bool:
        """May the summary just built for ``name`` be cached? Yes if it is complete, or
        if MAX_INCOMPLETE incomplete ones were built already (then the last one stays).
        Else it is kept as a draft, with the variables it lacked the types of (those
        the summaries built since ``start`` met)."""
        if not self._incomplete:
            self._drafts.pop(name, None)
            return True
        if self._fine_grained:
            return False  # dmypy: each update may infer more; rebuild until complete
        tries = self._attempts.get(name, 0) + 1
        self._attempts[name] = tries
        if tries >= MAX_INCOMPLETE:
            self._drafts.pop(name, None)
            return True
        self._drafts[name] = (fp, result, self.untyped[start:])
        return False

    def _phase(
        self, info: TypeInfo, fns: dict[str, FuncDef], cands: set[str], pairs: dict[str, str]
    ) -> dict[str, MethodSummary]:
        self._pairs[info.fullname] = pairs
        methods: dict[str, MethodSummary] = {}
        for m in fns:
            ms = self._method(info, m, cands)
            if ms is not None and not ms.empty():
                methods[m] = ms
        return methods

    def _method(self, info: TypeInfo, m: str, cands: set[str]) -> MethodSummary | None:
        done = self._building[info.fullname]
        if m in done:
            return done[m]
        done[m] = None  # recursion (self.a() calls self.b() calls self.a()): nothing
        fn = self._fns[info.fullname][m]
        assigned = _plain_init(fn, cands) if m == "__init__" else None
        if assigned is not None:  # what the analysis would find, without running it
            ms = MethodSummary(restores=set(assigned), frees=set(assigned))
        else:
            ms = self._summarise(info, fn, cands, self._pairs.get(info.fullname, {}))
        done[m] = ms
        return ms

    def _summarise(
        self,
        info: TypeInfo | None,
        fn: FuncDef,
        cands: set[str],
        pairs: dict[str, str],
        param: str | None = None,
    ) -> MethodSummary:
        """One method's summary (``info`` its class), or one plain function's for its
        parameter ``param`` (``info`` None)."""
        me = param or _self_name(fn) or "self"
        scope = SummaryScope(fn, self.untyped)
        scope.objects = self
        entry = State()
        an = Analysis(scope, entry)
        sentinels: set[int] = set()

        def sentinel() -> int:
            fact = Fact(CallExpr(NameExpr("<entry>"), [], [], []), "<entry>", False)
            fact.line = _SENTINEL_LINE
            scope.add(fact)
            sentinels.add(fact.id)
            return fact.id

        # One sentinel per candidate: a read is charged to the attribute whose entry
        # value it reads (after ``self.a, self.b = self.b, self.a`` a read of self.a
        # reads what self.b held).
        owner: dict[int, str] = {}
        paired: set[int] = set()
        holders = set(pairs.values())
        obj_info = info if info is not None else _param_class(fn, me)
        held_at_entry: dict[int, str] = {}  # sentinel -> a transfer attribute's entry value
        for c in sorted(cands):
            key = f"{me}.{c}"
            an.compound_keys.add(key)
            if c in holders and c not in pairs:
                continue
            pid = sentinel()
            if c not in pairs and _holds_transfer(obj_info, c):
                # ``job.transfer``: a transfer at entry (``job.transfer.wait()`` completes it)
                held_at_entry[pid] = c
                entry.put(key, frozenset({("P", pid, 0)}))
                continue
            owner[pid] = c
            entry.put(key, frozenset({("M", pid, 0)}))
            if c in pairs:
                hkey = f"{me}.{pairs[c]}"
                entry.put(hkey, entry.get(hkey) - {("O", -1, 0)} | {("P", pid, 0)})
                an.compound_keys.add(hkey)
                an.moved[pid] = [key]
                paired.add(pid)
        start = {c: entry.get(f"{me}.{c}") for c in cands}
        ms_early: dict[str, list[Context]] = {}
        # One more per candidate, on its mark (``self.bufs[$*]``, elements.py): a read of
        # that is a read of an element as the method found it; a store drops it.
        elem_owner: dict[int, str] = {}
        drained: dict[int, str] = {}
        done_in: dict[int, str] = {}
        if info is not None and param is None:
            for c in sorted(cands):
                if not _may_hold_elements(info, c):
                    continue
                pid = sentinel()
                elem_owner[pid] = c
                mkey = mark_of(f"{me}.{c}")
                entry.put(mkey, frozenset({("M", pid, ELEMENT)}))
                an.compound_keys.add(mkey)
                if _holds_transfers(info, c):
                    # An element completed at entry (the drains: a loop over all of them
                    # completes it again), and one the method completes (``elem_done``).
                    pid = sentinel()
                    drained[pid] = c
                    dkey = f"{me}.{c}{ONE_DONE}"
                    entry.put(dkey, frozenset({("W", pid, 0)}))
                    an.compound_keys.add(dkey)
                    pid = sentinel()
                    done_in[pid] = c
                    an.elems.holders[pid] = f"{me}.{c}"
            an.elems.active = bool(elem_owner)
            an.elems.kept = bool(drained)
        if info is not None:
            an.inferred[me] = info
            an.read_marks = frozenset(paired)
        # A stream attribute may be closed at entry (one close node stands for that):
        # the methods of it the method calls before rebinding it are ``stream_uses``.
        at_entry = len(an.close_nodes)
        streams = [c for c in sorted(cands) if _is_stream(obj_info, c)]
        if streams:
            an.close_nodes.append(CallExpr(NameExpr("<entry>"), [], [], []))
            for c in streams:
                entry.put(f"{me}.{c}{CLOSED}", frozenset({("C", at_entry, 0), OWN}))
                an.compound_keys.add(f"{me}.{c}{CLOSED}")
        an.run()
        for pid, nodes in an.early_reads.items():
            ms_early.setdefault(owner[pid], []).extend(nodes)
        if scope.unknown or an.unresolved:
            self._incomplete = True
        ms = MethodSummary(early_reads=ms_early)
        prefix = me + "."
        guards: Guards | None = None
        elem_read_at: dict[str, dict[str, tuple[int, int]]] = {}  # -> element path -> first
        first_read: dict[str, tuple[int, int]] = {}  # container -> its first element read
        first_use: dict[str, tuple[int, int]] = {}  # ... of those not guarded
        for ev in an.events.values():
            if ev.kind != "use":
                continue
            for a in ev.atoms:
                if a[0] == "M" and a[1] in elem_owner:
                    c = elem_owner[a[1]]
                    at = (ev.node.line, ev.node.column)
                    first_read[c] = min(first_read.get(c, at), at)
                    guards = guards or Guards(fn, me)
                    if not guards.covers(ev.node, c):
                        first_use[c] = min(first_use.get(c, at), at)
                        seen = elem_read_at.setdefault(c, {})
                        seen[ev.path] = min(seen.get(ev.path, at), at)
                    continue
                if a[0] != "M" or a[1] not in owner:
                    continue
                attr = owner[a[1]]
                if attr in ms.reads:
                    continue
                # ``"-" if p.state is UPLOADING else p.host.read()``: the object's own
                # state guards the read; not a use at the call (silence, guards.py).
                guards = guards or Guards(fn, me)
                if not guards.covers(ev.node, attr, pairs.get(attr, "")):
                    ms.reads.add(attr)
        for c, at in first_use.items():
            # ``t = self.pending[k]`` read before: the method looks at the transfers, on
            # a path where it does not take the element back there was none (silence)
            ms.elem_reads[c] = frozenset(h for h, b in first_read.items() if h != c and b < at)
        for ev in an.events.values() if drained else ():
            if ev.kind != "twice":
                continue
            line = ev.node.line
            if isinstance(ev.node, CallExpr) and line in an.elems.drained_by:
                line = an.elems.drained_by[line][1]  # ``self.close()``, which drains it
            elif not every_iteration(fn, ev.node):
                continue  # (a wait under a test: the object's own protocol, silence)
            for a in ev.atoms:
                if a[0] == "W" and a[1] in drained:
                    c = drained[a[1]]
                    ms.elem_drains[c] = min(ms.elem_drains.get(c, line), line)
        final = an.final
        if final is None:
            return ms  # never returns normally: no effects on its object
        for pid, c in done_in.items():
            if any(a[0] == "W" and a[1] == pid for a in final.get(f"{me}.{c}{ONE_DONE}")):
                ms.elem_done.add(c)
        for pid, c in drained.items():
            # A drain that keeps what it completed (``for t in self.pending: t.wait()``,
            # no ``clear()``): on every path the loop ran, as the method's first exit,
            # and left the container as it was (its mark unchanged: nothing stored,
            # taken out or handed on). Afterwards it holds completed transfers only.
            if (
                c in ms.elem_drains
                and final.get(f"{me}.{c}{ONE_DONE}") == frozenset({("W", pid, 0)})
                and not (fn.is_generator or fn.is_coroutine)  # (a call runs nothing yet)
                and named_once(fn, me, c)  # no alias that may clear it (``q = self.c``)
                and drain_on_every_path(fn, ms.elem_drains[c])
            ):
                ms.elem_done.add(c)
        for ev in an.events.values() if streams else ():
            rel = ev.path[len(prefix) :] if ev.path.startswith(prefix) else ""
            if ev.kind == "closed-use" and ("C", at_entry, 0) in ev.atoms and rel in streams:
                ms.stream_uses.add(rel)
        for c in streams:
            closed = final.vals.get(f"{me}.{c}{CLOSED}", frozenset())
            if closed and all(a[0] == "C" and a[1] != at_entry for a in closed):
                ms.closes.add(c)
        if param is not None:
            ms.elem_completes = _completed_inputs(an, final, me)
        if elem_owner:
            self._elements(fn, an, final, me, elem_owner, sentinels, ms, info)
            # ``with self.slots[k].write()`` before ``self.slots[k] = t.wait()`` (or a
            # method storing ``self.slots[k]``) in a method that moves an element: at
            # its next call the element it reads may be the one it left moved
            for c, paths in elem_read_at.items():
                if c in ms.elem_moves and any(
                    MARK not in p and an.rebound_last.get(p, at) > at for p, at in paths.items()
                ):
                    ms.elem_self.add(c)
        for c in cands:
            # Only what the method (or a method it calls) rebinds is restored or freed: a
            # test that narrows (``if self.up is not None``) changes the atoms too, on the
            # path where the object never had the attribute moved.
            if not _rebound(an, f"{me}.{c}"):
                continue
            atoms = final.get(f"{me}.{c}")
            if atoms != start[c]:
                ms.restores.add(c)
            if c not in holders and any(a[0] != "M" for a in atoms):
                ms.frees.add(c)
        for c in cands:  # an attribute left holding another's entry value (a swap)
            atoms = final.get(f"{me}.{c}")
            srcs = {owner.get(a[1]) for a in atoms if a[0] == "M"}
            src = next(iter(srcs)) if len(srcs) == 1 else None
            if src is not None and src != c and atoms == start.get(src):
                ms.copies[c] = src
        for pid, c in held_at_entry.items():  # not a pair's (``job.transfer.wait()``)
            if pid not in an.completed:
                continue
            ms.waits.add(c)
            if any(a[0] == "W" and a[1] == pid for a in final.get(f"{me}.{c}")):
                ms.completes.add(c)  # and left there, completed
        for pid, c in owner.items():  # the transfers held at entry (``pairs``)
            h = pairs.get(c)
            if h is None or pid not in an.completed:
                continue
            ms.waits.add(h)
            if any(a[0] == "W" and a[1] == pid for a in final.get(f"{me}.{h}")):
                ms.completes.add(h)
        if ms.waits:
            # ``if not self.pending.completed: self.host = self.pending.wait()``, ``if not
            # self.back: ... self.back = True``: a second call does not complete it again
            flags = assigned_attrs(fn, me)
            for h in ms.waits:
                calls = wait_calls(fn, me, h)
                if calls:
                    guards = guards or Guards(fn, me)
                    if all(guards.wait_guarded(c, h, flags) for c in calls):
                        ms.guarded_waits.add(h)
        # transfer fact -> the attribute holding it
        held: dict[int, str] = {}
        for key, atoms in final.vals.items():
            if not key.startswith(prefix) or "[$" in key:
                continue
            for a in atoms:
                if a[0] in "PE" and 0 <= a[1] < len(scope.facts) and a[1] not in sentinels:
                    held.setdefault(a[1], key[len(prefix) :])
        returns_transfer = isinstance(fn.type, CallableType) and ret_kind(fn.type.ret_type) == (
            "producer"
        )
        label = _label(fn.info, fn.name) if not isinstance(fn.info, FakeInfo) else fn.name
        for key, atoms in sorted(final.vals.items()):
            if not key.startswith(prefix) or "[$" in key:
                continue  # an index by a local name means nothing to the caller
            rel = key[len(prefix) :]
            movers = sorted(
                (scope.facts[a[1]] for a in atoms if a[0] == "M" and a[1] not in sentinels),
                key=lambda f: (f.line, f.id),
            )
            if not movers:
                continue
            f = movers[0]
            maybe = any(a[0] != "M" or a[1] in sentinels for a in atoms)
            holder = held.get(f.id, f.holder)
            if f.id not in held:  # ``self.pending = s.download(dev, into=up)``: the chained
                # transfer that carries the move on is the one an attribute holds
                holder = next((held[c] for c in an.held.carriers(f.id)[1:] if c in held), holder)
            mv = Move(
                attr=rel,
                callee=f.callee,
                line=f.line,
                origin=f.origin[:-2] if f.origin else label,
                producer=f.producer,
                handles=f.handles,
                holder=holder,
                returned=f.producer and not holder and returns_transfer,
                maybe=maybe,
            )
            ms.moves[rel] = mv
            if holder:
                ms.holders[holder] = mv
        return ms

    def _elements(
        self,
        fn: FuncDef,
        an: Analysis,
        final: State,
        me: str,
        elem_owner: dict[int, str],
        sentinels: set[int],
        ms: MethodSummary,
        info: TypeInfo | None,
    ) -> None:
        """The ring part of a method's summary: the containers it stores into (its
        element sentinel gone on some path) and those it leaves with an element moved by
        a local index (``self.bufs[$k]``, ``k`` not a parameter) or by a loop (the mark),
        the transfer held by an element of another attribute (``self.pending[$k]``)."""
        for pid, c in elem_owner.items():
            if final.vals.get(mark_of(f"{me}.{c}")) != frozenset({("M", pid, ELEMENT)}):
                ms.elem_stores.add(c)
        params = {a.variable.name for a in fn.arguments}
        prefix = me + "."
        held: dict[int, str] = {}  # transfer fact -> the container an element of which holds it
        moved: dict[str, list[Fact]] = {}
        uncertain: set[str] = set()  # containers whose moved element is moved on some paths
        # container -> the local indexes it moves or stores elements by (``[$k]``)
        indexes: dict[str, set[str]] = {}
        for key in an.rebound:
            cont = container_of(key) if key.startswith(prefix) else None
            if cont is not None and "[$" in key[len(cont) :] and "." not in cont[len(prefix) :]:
                indexes.setdefault(cont[len(prefix) :], set()).add(key[len(cont) :])
        for key, atoms in final.vals.items():
            if not key.startswith(prefix):
                continue
            cont = container_of(key)
            if cont is None or "." in cont[len(prefix) :] or "[" in cont[len(prefix) :]:
                continue  # not an element of a first-level attribute
            index = key[len(cont) :]
            if not index.startswith("[$") or index[2:-1] in params:
                continue  # ``bufs[0]`` is a path of its own; ``bufs[i]``, i a parameter
            attr = cont[len(prefix) :]
            for a in atoms:
                if a[1] in sentinels or not 0 <= a[1] < len(an.scope.facts):
                    if a[0] != "M" and key != mark_of(cont):
                        uncertain.add(attr)
                    continue
                if a[0] in "PE":
                    held.setdefault(a[1], attr)
                elif a[0] == "M":
                    moved.setdefault(attr, []).append(an.scope.facts[a[1]])
                    if key != mark_of(cont):
                        indexes.setdefault(attr, set()).add(index)
                else:
                    uncertain.add(attr)
        label = _label(fn.info, fn.name) if not isinstance(fn.info, FakeInfo) else fn.name
        for attr, facts in sorted(moved.items()):
            if attr in uncertain or len(indexes.get(attr, ())) > 1:
                # moved on some paths only (``if self.sync: self.bufs[k] = t.wait()``), or
                # another element stored by another index (double buffering: issue slot
                # k, take slot j back): which one a reader meets is anyone's guess
                continue
            for f in sorted(facts, key=lambda f: (f.line, f.id)):
                holder = held.get(f.id) or next(
                    (held[c] for c in an.held.carriers(f.id)[1:] if c in held), ""
                )
                if not holder or holder == attr:
                    continue
                ms.elem_moves[attr] = Move(
                    attr=attr + MARK,
                    callee=f.callee,
                    line=f.line,
                    origin=f.origin[:-2] if f.origin else label,
                    producer=f.producer,
                    handles=f.handles,
                    holder=holder + MARK,
                    returned=False,
                    maybe=True,
                )
                break

    def function_summary(self, fn: FuncDef) -> dict[str, MethodSummary] | None:
        """What a plain (module-level) function, or a method, does to the attributes of
        each of its positional parameters (a method's ``self`` aside: the class summary
        says what it does to those): the same summary as a method's, one per parameter."""
        if in_library(fn.fullname):
            return None
        method = not isinstance(fn.info, FakeInfo)
        if method and (fn.is_static or fn.is_class or _self_name(fn) is None):
            return None
        if self.foreign(fn.fullname):
            return None
        if not has_syntax(fn):
            return None
        name = fn.fullname
        self._idle_reset()
        if not self._fine_grained and name in self._ffinal:
            return self._ffinal[name]
        fp: tuple[object, ...] = (fn.line, fn.column, fn.end_line, fn.end_column)
        cached = self._fcache.get(name)
        if cached is not None and cached[0] == fp:
            return cached[1]
        if self._waiting(name, fp):
            return cast("dict[str, MethodSummary] | None", self._drafts[name][1])
        if name in self._fbusy:
            return None
        self._fbusy.add(name)
        start = len(self.untyped)
        self._depth += 1
        try:
            out: dict[str, MethodSummary] = {}
            waits = _completes_something(fn)
            for arg in fn.arguments[1:] if method else fn.arguments:
                if arg.kind not in (ARG_POS, ARG_OPT):
                    break
                p = arg.variable.name
                cands = _candidates({fn.name: fn}, p) | _passed_candidates(fn, p)
                if not cands and not (waits and not _inert_param(fn, p)):
                    continue
                ms = self._summarise(None, fn, cands, {}, p)
                pairs = {
                    a: mv.holder
                    for a, mv in ms.moves.items()
                    if mv.producer and mv.holder and "." not in a and "[" not in a
                }
                for a, h in _take_back_pairs({fn.name: fn}, p).items():
                    if a in cands and h not in pairs:
                        pairs.setdefault(a, h)
                if pairs:
                    ms = self._summarise(None, fn, cands, pairs, p)
                if not ms.empty():
                    out[p] = ms
            result = out or None
            if self._settled(name, fp, result, start):
                self._fcache[name] = (fp, result)
                self._ffinal[name] = result
            return result
        finally:
            self._depth -= 1
            self._fbusy.discard(name)

    def _function_call(self, an: Analysis, call: CallExpr, st: State) -> None:
        """``f(obj, ...)`` of a plain function: its summary applied to each argument
        that is a path."""
        callee = call.callee
        fn = callee.node if isinstance(callee, (NameExpr, MemberExpr)) else None
        if not isinstance(fn, FuncDef):
            return
        summary = self.function_summary(fn)
        if not summary or not isinstance(fn.type, CallableType):
            return
        actuals = map_actuals(call, fn.type, False)
        if actuals is None:
            return
        for i, arg in enumerate(fn.arguments):
            ms = summary.get(arg.variable.name)
            if ms is None or i >= len(actuals) or len(actuals[i]) != 1:
                continue
            chain = path_chain(call.args[actuals[i][0]])
            if chain is not None:
                self._apply(an, call, st, None, ms, chain[-1][0], fn.name, set())

    # -- the engine's hooks (scope.ObjectModel) --------------------------------------
    def module(self, name: str) -> MypyFile | None:
        return self._modules(name) if self._modules is not None else None

    def enter(self, an: object, st: State) -> None:
        if not isinstance(an, Analysis):
            return
        fn = an.scope.node
        if not isinstance(fn, FuncDef) or isinstance(fn.info, FakeInfo):
            return
        me = _self_name(fn)
        if me is None:
            return
        an.inferred.setdefault(me, fn.info)
        if fn.name == "__init__":
            return  # nothing is moved at a constructor's entry (``entry_moves``)
        summary = self.summary(fn.info)
        if summary is None:
            return
        own = summary.methods.get(fn.name)
        for attr, nodes in sorted(own.early_reads.items() if own is not None else ()):
            moves = [mv for _m, mv in summary.protocol.get(attr, [])]
            if not moves:
                continue
            path = f"{me}.{attr}"
            fact = self._fact(an, fn.info, moves[0], path, fn)
            for node in nodes:
                an.event("use", node, path, frozenset({("M", fact.id, 0), OWN}))
        for attr, moves in sorted(summary.entry_moves(fn.name).items()):
            path = f"{me}.{attr}"
            for mv in moves:
                fact = self._fact(an, fn.info, mv, path, fn)
                st.put(path, st.get(path) | {("M", fact.id, 0)})
                an.compound_keys.add(path)
                hpath = f"{me}.{mv.holder}"
                st.put(hpath, st.get(hpath) | {("P", fact.id, 0)})
                an.compound_keys.add(hpath)

    @staticmethod
    def _started(an: Analysis, call: CallExpr) -> CallExpr | None:
        """``worker.start()`` (or ``Thread(...).start()``) of a thread whose target call
        is known (``Analysis.threads``): that call."""
        callee = call.callee
        if not an.threads or not isinstance(callee, MemberExpr) or callee.name != "start":
            return None
        if id(callee.expr) in an.threads:
            return an.threads[id(callee.expr)]
        chain = path_chain(callee.expr)
        return an.thread_paths.get(chain[-1][0]) if chain is not None else None

    def call(self, an: object, call: CallExpr, st: State) -> None:
        if not isinstance(an, Analysis):
            return
        if self._library_call(an, call):
            callee = call.callee
            started = self._started(an, call)
            if started is not None:  # ``worker.start()``: its target runs from here on
                self._call(an, started, st)
                self.inputs.apply_deferred(an, started, st, thread=True)
                return
            recv = an.receiver(callee.expr) if isinstance(callee, MemberExpr) else None
            later = deferred_call(call, recv if isinstance(recv, TypeInfo) else None)
            if later is not None and not self._library_call(an, later):
                if isinstance(callee, RefExpr) and callee.fullname == "threading.Thread":
                    an.threads[id(call)] = later  # nothing runs before its start()
                    return
                # ``pool.submit(process, shard)``: ``process(shard)`` runs from here on,
                # in another thread; what it does to its arguments is done at the submit
                self._call(an, later, st)
                self.inputs.apply_deferred(an, later, st)
            return
        self.inputs.borrow_breaks(an, call)  # (before what the call rebinds)
        self._call(an, call, st)
        self.inputs.apply(an, call, st)  # then what it does to its arguments (inputs.py)

    def _library_call(self, an: Analysis, call: CallExpr) -> bool:
        """Does ``call`` run a function or method of a module whose bodies are never
        summarised (numbaxfer itself, an installed package, a stub such as builtins)?
        Then neither a class summary nor an input summary applies, and the two lookups
        that would each find that out are skipped (most calls: ``len``, ``range``,
        ``s.upload``, ``ups.append``). A receiver whose type is not inferred yet is
        left to them (they mark the analysis unresolved)."""
        callee = call.callee
        if isinstance(callee, NameExpr):
            if callee.name in an.scope.local_funcs:
                return False
            node = callee.node
        elif isinstance(callee, MemberExpr):
            node = callee.node
            if node is None:
                info = an.receiver(callee.expr)
                return isinstance(info, TypeInfo) and self._library_name(info.fullname)
        else:
            return False
        if isinstance(node, (FuncDef, OverloadedFuncDef, Decorator, TypeInfo)):
            return self._library_name(node.fullname)
        return False

    def _library_name(self, fullname: str) -> bool:
        known = self._library.get(fullname)
        if known is None:
            known = in_library(fullname) or self.foreign(fullname)
            self._library[fullname] = known
        return known

    def _call(self, an: Analysis, call: CallExpr, st: State) -> None:
        if isinstance(call.callee, SuperExpr):
            found = super_method(an, call.callee)
            if found is not None:
                self._method_call(an, call, st, found[0], found[1], call.callee.name)
            return
        if not isinstance(call.callee, MemberExpr) or isinstance(call.callee.node, FuncDef):
            self._function_call(an, call, st)
            return
        callee = call.callee
        chain = path_chain(callee.expr)
        if chain is None:
            return
        info = self._receiver(an, callee.expr)
        if info is None:
            return
        self._method_call(an, call, st, info, chain[-1][0], callee.name)
        self._method_params(an, call, st, info, callee.name)

    def _method_params(
        self, an: Analysis, call: CallExpr, st: State, info: TypeInfo, name: str
    ) -> None:
        """``obj.m(b)``: what ``m`` does to the attributes of its parameters (``b.host``
        moved, its transfer kept in ``b.transfer``), applied to the arguments that are
        paths. Positional and keyword arguments only."""
        fn = info.get_method(name)
        if not isinstance(fn, FuncDef) or not has_syntax(fn) or len(fn.arguments) < 2:
            return  # (a method from mypy's cache has no arguments: not summarised)
        summary = self.function_summary(fn)
        if not summary:
            return
        params = [a.variable.name for a in fn.arguments[1:]]
        for i, (arg, kind, kw) in enumerate(
            zip(call.args, call.arg_kinds, call.arg_names, strict=True)
        ):
            if kind == ARG_POS:
                p = params[i] if i < len(params) else None
            elif kind == ARG_NAMED:
                p = kw
            else:
                return  # ``*args``/``**kwargs``: which parameter gets what is not known
            ms = summary.get(p) if p is not None else None
            chain = path_chain(arg) if ms is not None else None
            if ms is not None and chain is not None:
                self._apply(an, call, st, None, ms, chain[-1][0], _label(info, name), set())

    def _method_call(
        self, an: Analysis, site: Expression, st: State, info: TypeInfo, obj: str, name: str
    ) -> None:
        """``obj.name()`` (or the property read ``obj.name``) at ``site``. A method
        the class inherits is the summary of the base class that defines it (the first
        in the MRO; an override in a subclass of ``obj``'s class is not known here)."""
        if name not in info.names:
            base = next((b for b in info.mro[1:] if name in b.names), None)
            if base is None or base.fullname == "builtins.object":
                return
            info = base
        building = self._building.get(info.fullname)
        summary: ClassSummary | None = None
        if building is not None:
            fns = self._fns[info.fullname]
            if name not in fns:
                return
            ms = self._method(info, name, self._cands[info.fullname])
            entry_attrs: set[str] = set()
        else:
            summary = self.summary(info)
            ms = summary.methods.get(name) if summary is not None else None
            entry_attrs = set(summary.entry_moves(name)) if summary else set()
        if ms is None:
            return
        self._apply(an, site, st, info, ms, obj, _label(info, name), entry_attrs)

    def run_method(
        self, an: object, site: Expression, recv: Expression, info: TypeInfo, name: str, st: State
    ) -> None:
        chain = path_chain(recv)
        if isinstance(an, Analysis) and chain is not None:
            self._method_call(an, site, st, info, chain[-1][0], name)

    def bound(self, an: object, name: str, call: CallExpr, st: State) -> None:
        if isinstance(an, Analysis):
            self.inputs.bound(an, name, call, st)

    def member(self, an: object, e: MemberExpr, st: State) -> None:
        """``obj.prop`` read, ``prop`` a property of a summarised class: its getter
        runs here. A receiver not inferred yet is left to a later analysis (the
        plugin's attribute hook analyses the scope again when mypy reaches the read)."""
        if not isinstance(an, Analysis):
            return
        fn = an.scope.node
        if (
            isinstance(e.expr, NameExpr)
            and isinstance(fn, FuncDef)
            and not isinstance(fn.info, FakeInfo)
            and e.expr.name == _self_name(fn)
        ):
            info: TypeInfo | str | None = fn.info
        else:
            info = an.receiver(e.expr)
        if not isinstance(info, TypeInfo) or isinstance(info, FakeInfo):
            return
        sym = info.get(e.name)
        if sym is None or _property_getter(sym.node) is None:
            return
        chain = path_chain(e.expr)  # (only for a property: most members are not)
        if chain is not None:
            self._method_call(an, e, st, info, chain[-1][0], e.name)

    def _apply(
        self,
        an: Analysis,
        call: Expression,
        st: State,
        info: TypeInfo | None,
        ms: MethodSummary,
        obj: str,
        label: str,
        entry_attrs: set[str],
    ) -> None:
        """A summary applied to the object at path ``obj`` at ``call`` (a call, or
        the read of a property)."""
        # What the method reads before rebinding it. Attributes the method is itself
        # checked for at its entry (the protocol rule) are reported there, not here.
        for attr in sorted(ms.reads - entry_attrs):
            an.read_free(f"{obj}.{attr}", call, st, label)
        for h in sorted(ms.waits - ms.guarded_waits):  # it completes the one held there
            path = f"{obj}.{h}"
            atoms = st.get(path)
            if completed_before(atoms) and not an.guarded_element_wait(call, path, atoms):
                an.event("twice", call, path, atoms)
        for c, line in sorted(ms.elem_drains.items()):  # ``batch.close()``
            key = f"{obj}.{c}"
            elems = an.elems
            done = st.vals.get(key + ONE_DONE)
            if done is None and elems.touched_at is call:
                done = elems.touched_dropped.get(key)
            if done is not None and completed_before(done):
                elems.drained_by[call.line] = (label, line)
                an.event("twice", call, key + ONE_DONE, done, label)
        for attr in sorted(ms.stream_uses):  # ``w.evaluate()`` after ``w.restart()``
            closed = st.vals.get(f"{obj}.{attr}{CLOSED}")
            if closed and any(a[0] == "C" for a in closed) and not an.refusal_expected():
                an.event("closed-use", call, f"{obj}.{attr}", closed, f"via {label}")
        if ms.elem_completes:
            self._completions(an, call, st, ms, obj, label)
        for h in sorted(ms.completes):  # ... and leaves it there, completed
            path = f"{obj}.{h}"
            pids = sorted({a[1] for a in st.get(path) if a[0] in TRANSFER_KINDS})
            # (what it held is not known here: whatever it was, it is completed now)
            st.put(path, frozenset(("W", pid, call.line) for pid in pids or [-1]))
            an.compound_keys.add(path)
        self._apply_elements(an, call, st, info, ms, obj, label)
        copied = {c: st.get(f"{obj}.{src}") for c, src in sorted(ms.copies.items())}
        for attr in sorted(ms.restores):
            path = f"{obj}.{attr}"
            if attr in ms.waits and isinstance(call, MemberExpr):
                # a property getter that completes the transfer held there and rebinds
                # its holder (``self.pending = None``) drops nothing (a method call's
                # receiver is handed on at the call: the same silence)
                held = st.get(path)
                st.put(
                    path,
                    frozenset(
                        ("W", a[1], call.line) if a[0] in TRANSFER_KINDS else a for a in held
                    ),
                )
            an.rebind(path, st, call)
        for attr, atoms in copied.items():  # ``self.front, self.back = self.back, ...``
            path = f"{obj}.{attr}"
            an.compound_keys.add(path)
            st.put(path, atoms)
            for fid in sorted({a[1] for a in atoms if a[0] == "M"}):
                moved = an.moved.setdefault(fid, [])  # the buffer is known by it now
                if path not in moved:
                    moved.append(path)
        for attr in sorted(ms.closes):  # it leaves ``obj.<attr>`` closed
            if isinstance(call, CallExpr):
                an.mark_closed(f"{obj}.{attr}", call, st, label)
        own = an.scope.fact_for(call, an.infer) if isinstance(call, CallExpr) else None
        for attr, mv in sorted(ms.moves.items()):
            path = f"{obj}.{attr}"
            if mv.returned and own is not None and own.producer:
                fact = own  # ``t = obj.send()``: t carries it, ``obj.buf = t.wait()``
                moved = an.moved.setdefault(fact.id, [])
                if path not in moved:
                    moved.append(path)
            else:
                fact = self._fact(an, info, mv, path, call)
            if isinstance(call, CallExpr) and an.borrowing() and not mv.maybe:
                an.borrow_conflict(call, path, "move", fact.id)  # inside ``with obj.x.lend()``
            atoms = frozenset({("M", fact.id, 0)})
            an.invalidate(path, st.get(path) | atoms if mv.maybe else atoms, st)
        for h, mv in sorted(ms.holders.items()):
            path = f"{obj}.{h}"
            fact = self._fact(an, info, mv, f"{obj}.{mv.attr}", call)
            an.rebind(path, st, call)
            st.put(path, frozenset({("P", fact.id, 0)}))
            an.compound_keys.add(path)
        for c in sorted(ms.elem_done):  # ``batch.collect(name)``: one completed, kept
            an.elems.done_by_call(f"{obj}.{c}", call.line, label, st)

    def _completions(
        self, an: Analysis, call: Expression, st: State, ms: MethodSummary, obj: str, label: str
    ) -> None:
        """``collect(jobs)``, ``finish(t)``: the function completes the transfer it is
        given, or every element's (``MethodSummary.elem_completes``). One completed
        before (as the call found it: the call itself clears the marks of what it is
        passed) is completed twice; after the call it is completed."""
        elems = an.elems
        dropped = elems.call_dropped if elems.owner_call is call else {}
        for rest in sorted(ms.elem_completes):
            path = obj + rest
            atoms = st.vals.get(path, dropped.get(path))
            one = _CONST_ELEMENT.match(rest)
            if one is not None:  # ``preview(jobs)`` completing ``jobs[0].download``:
                mkey = mark_of(obj) + rest[one.end() :]  # what a drain of all left there
                mark = st.vals.get(mkey, dropped.get(mkey))
                if mark is not None:
                    atoms = mark if atoms is None else atoms | mark
            if (
                atoms is not None
                and completed_before(atoms)
                and not an.guarded_element_wait(call, path, atoms)
            ):
                an.event("twice", call, path, atoms, label)
            if not rest or one is not None:  # one transfer, spelled: completed now
                pids = sorted({a[1] for a in st.get(path) if a[0] in TRANSFER_KINDS})
                st.put(path, frozenset(("W", pid, call.line) for pid in pids or [-1]))
                an.compound_keys.add(path)
                elems.wait_calls[call.line] = (label, "")
                continue
            tail = rest[len(MARK) :]
            elems.called_completion(obj, tail, call.line, label, st)

    def _apply_elements(
        self,
        an: Analysis,
        call: Expression,
        st: State,
        info: TypeInfo | None,
        ms: MethodSummary,
        obj: str,
        label: str,
    ) -> None:
        """The ring part of a summary at ``obj.m()``: the marks of ``obj``'s containers
        the call dropped (elements.py: a method of the owner may put elements back) are
        put back where the method leaves the container alone; an element read is a use
        of the mark; a store drops it; an element left moved marks the container."""
        elems = an.elems
        if info is None:
            return
        stored = ms.elem_stores | ms.restores
        # (a property read or ``__enter__``: no call dropped anything)
        dropped = elems.owner_dropped if elems.owner_call is call else {}
        for key, atoms in sorted(dropped.items()):
            c = marked_container(key)
            attr = c[len(obj) + 1 :] if c is not None and c.startswith(obj + ".") else ""
            if attr and "." not in attr and "[" not in attr and attr not in stored:
                st.put(key, atoms)
        elems.owner_dropped = {}
        facts = an.scope.facts
        for attr, looked in sorted(ms.elem_reads.items()):
            key = mark_of(f"{obj}.{attr}")
            found = st.vals.get(key, dropped.get(key))  # as the method finds it
            if found is None:
                continue
            atoms = found
            # The method's own earlier moves: another element, as far as it shows, but
            # where it reads an element before it takes that one back (``elem_self``)
            moves = [a for a in atoms if a[0] == "M" and 0 <= a[1] < len(facts)]
            own = attr not in ms.elem_self and all(
                facts[a[1]].origin == label + "()" for a in moves
            )
            holders = {facts[a[1]].holder for a in moves}
            looked_at = all(
                h.startswith(obj + ".") and h[len(obj) + 1 : -len(MARK)] in looked for h in holders
            )
            if moves and not own and not looked_at:
                an.event("use", call, key, atoms, label)
        for attr in sorted(ms.elem_stores - ms.restores):
            st.vals.pop(mark_of(f"{obj}.{attr}"), None)
        if isinstance(call, CallExpr):  # ``self._reclaim(k)``: may store ``self.slots[k]``
            names = [a.name for a in call.args if isinstance(a, NameExpr)]
            at = (call.line, call.column)
            for attr in sorted(ms.elem_stores):
                for n in names:
                    key = f"{obj}.{attr}[${n}]"
                    an.rebound.add(key)
                    an.rebound_last[key] = max(an.rebound_last.get(key, at), at)
        for attr, mv in sorted(ms.elem_moves.items()):
            key = mark_of(f"{obj}.{attr}")
            fact = self._fact(an, info, mv, key, call)
            an.compound_keys.add(key)
            st.put(key, st.get(key) - OWN_SET | {("M", fact.id, ELEMENT)})
            elems.active = True

    def _receiver(self, an: Analysis, e: Expression) -> TypeInfo | None:
        fn = an.scope.node
        if (
            isinstance(e, NameExpr)
            and isinstance(fn, FuncDef)
            and not isinstance(fn.info, FakeInfo)
            and e.name == _self_name(fn)
        ):
            return fn.info
        info = an.receiver(e)
        if isinstance(info, str):
            an.unresolved = True  # not inferred yet: try again in a later analysis
            return None
        return info

    def _fact(self, an: Analysis, info: TypeInfo | None, mv: Move, path: str, site: Node) -> Fact:
        """The fact standing for ``mv`` on ``path`` in this scope (made once)."""
        key = (info.fullname if info is not None else "", mv.origin, mv.attr, path)
        fact = an.scope.origin_facts.get(key)
        if fact is None:
            fact = Fact(CallExpr(NameExpr(mv.callee), [], [], []), mv.callee, True)
            fact.line = mv.line
            fact.end = (site.line, site.column)
            fact.producer = mv.producer
            fact.handles = mv.handles
            fact.origin = mv.origin + "()"
            holder_root = path[: len(path) - len(mv.attr)] if path.endswith(mv.attr) else ""
            fact.holder = holder_root + mv.holder if mv.holder else ""
            an.scope.add(fact)
            an.scope.origin_facts[key] = fact
        moved = an.moved.setdefault(fact.id, [])
        if path not in moved:
            moved.append(path)
        return fact

    # -- what the plugin claims -------------------------------------------------------
    def method_matters(self, info: TypeInfo, method: str) -> bool:
        """Do calls of ``info.method`` change or read what other methods move?"""
        summary = self.summary(info)
        ms = summary.methods.get(method) if summary is not None else None
        if (
            summary is not None
            and ms is not None
            and (
                summary.moved
                or (summary.closed and (ms.stream_uses or ms.closes))
                or ms.elem_done  # a call leaves a completed transfer in a container
                or ms.elem_drains  # ... and one completes every transfer held there
            )
        ):
            return True
        fn = info.get_method(method)
        if not isinstance(fn, FuncDef):
            return False
        return self.inputs.matters(fn, _label(info, method)) or bool(self.function_summary(fn))

    def attribute_matters(self, info: TypeInfo, attr: str) -> bool:
        """Is ``self.<attr>`` possibly moved at the entry of some method (protocol), or
        is ``attr`` a property whose getter reads attributes while some method moves
        attributes (its read ``obj.attr`` is then a use, like a method call)?"""
        summary = self.summary(info)
        if summary is None:
            return False
        if attr in summary.protocol:
            return True
        ms = summary.methods.get(attr)
        if ms is None or not ms.reads or not summary.moved:
            return False
        sym = info.get(attr)
        return sym is not None and _property_getter(sym.node) is not None

    def attribute_moved(self, info: TypeInfo, attr: str) -> bool:
        """Does some method of the class leave ``self.<attr>`` moved? (A subclass's
        method calling it through ``super()`` may then read it moved.)"""
        summary = self.summary(info)
        return summary is not None and attr in summary.moved

    def function_matters(self, fn: FuncDef) -> bool:
        """Does a call of the plain function ``fn`` read or change its arguments'
        attributes?"""
        return bool(self.function_summary(fn)) or self.inputs.matters(fn, fn.name)

    def incomplete(self) -> bool:
        """Was the last summary built while a type it needs was not inferred?"""
        return self._incomplete or self.inputs.incomplete()


def _class_summary(methods: dict[str, MethodSummary]) -> ClassSummary:
    protocol: dict[str, list[tuple[str, Move]]] = {}
    restorers: dict[str, set[str]] = {}
    moved: set[str] = set()
    closed: set[str] = set()
    for m, ms in methods.items():
        moved.update(ms.elem_moves)
        closed.update(ms.closes)
        for attr, mv in ms.moves.items():
            moved.add(attr)
            if mv.producer and mv.holder:
                protocol.setdefault(attr, []).append((m, mv))
        if m != "__init__":
            for attr in ms.frees:
                restorers.setdefault(attr, set()).add(m)
    # a restore of a prefix (``self.slot = ...``) restores what extends it
    for attr in list(protocol):
        for other, who in list(restorers.items()):
            if path_extends(attr, other):
                restorers.setdefault(attr, set()).update(who)
    return ClassSummary(methods, protocol, restorers, moved, closed)
