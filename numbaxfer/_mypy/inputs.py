"""What a called function does to its *inputs*: the objects its parameters receive and
the variables of the caller's scope it reads (a per-function summary, applied at calls).

``classes.py`` follows what a method does to the attributes of its object; this module
follows the inputs themselves:

* **moves**: a parameter *not* declared ``nx.Consumed`` whose entry object is moved on
  some path (``host = s.upload(host, to=dev).wait()`` rebinds only the helper's local:
  the caller's handle is retired by the call), and a variable of the enclosing scope
  (a global, or a variable of the enclosing function) the function moves and leaves
  moved. At the call the argument (or that variable) is moved, with the move's line and
  the function's name; where the callee returns a transfer, the call's own result
  carries the move (``t = quick(host)`` then ``host = t.wait()``).
* **stores**: an attribute of one parameter (``self`` included) left holding the entry
  object of another (``def attach(self, ls): self.stream = ls``). At the call the
  attribute path (``w.stream``) is the same object as the argument (``ls``): when ``ls``
  is a lent handle, it expires with its block, and a later read through a method
  (``w.run()``) is ``lend-escape``.

A summary comes from one run of the data-flow engine over the body: each parameter
starts out holding its entry value (an ``N`` atom) and is shadowed by a *ghost* path,
an alias of it that no code can name or rebind, so the ghost is moved exactly when the
entry object is, whatever the parameter is rebound to later. Calls inside the body apply
their own summaries (transitive). A summary that cannot be computed is silence: a body
not available (a module from mypy's cache), a decorated function, recursion (every
function of the cycle), a callee typed ``Any`` (no fact), star arguments at the call.

Module-level functions and methods are cached per full name and position (never on
node identity: dmypy re-analyses nodes in place); nested functions and lambdas, which
are only followed when called by name in the scope that defines them, are cached on
that scope (``Scope.local_inputs``), which mypy's binder makes afresh for every check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from mypy.nodes import (
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    AssignmentExpr,
    AssignmentStmt,
    BreakStmt,
    CallExpr,
    ConditionalExpr,
    ContinueStmt,
    Decorator,
    DelStmt,
    Expression,
    FakeInfo,
    ForStmt,
    FuncDef,
    FuncItem,
    IfStmt,
    LambdaExpr,
    ListExpr,
    MatchStmt,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RaiseStmt,
    ReturnStmt,
    SuperExpr,
    TryStmt,
    TupleExpr,
    TypeInfo,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.types import CallableType, Type, get_proper_type

from .blocks import BORROW_BREAKERS
from .facts import (
    Fact,
    is_consumed,
    is_inert,
    map_actuals,
    result_info,
    ret_kind,
)
from .flow import Analysis
from .module_globals import ModuleGlobals, is_module_function, module_of
from .names import DEFERRED, DEFERRED_THREAD, MAX_ALIASES, in_library
from .paths import display_path, path_chain, root_name
from .scope import ObjectModel, Scope, SummaryScope
from .state import OWN_SET, State
from .syntax import (
    bound_and_declared,
    child_nodes,
    free_reads,
    has_syntax,
    nested_functions,
    stored_targets,
    target_names,
)

#: Functions whose summary is being computed deeper than this are not followed (silence).
MAX_DEPTH: Final = 16


def ghost(name: str) -> str:
    """The path shadowing parameter ``name``'s entry object (no code can name it)."""
    return f"<entry {name}>"


@dataclass(frozen=True)
class InputMove:
    """An input (parameter, or variable of the caller's scope) left moved by a call."""

    name: str
    callee: str  # the consuming call inside: "Stream.upload"
    line: int
    origin: str  # the function the move was made in: "push_sync", "Worker.push"
    producer: bool  # that call starts a transfer (which the callee may return)
    handles: bool  # metadata of the moved value stays readable
    maybe: bool  # on some paths only
    holder: str = ""  # the attribute of ``self`` left holding its transfer ("" if none)


@dataclass(frozen=True)
class InputStore:
    """``obj.attr`` (``obj`` a parameter, ``self`` included) left holding ``src``'s entry
    object."""

    obj: str
    attr: str
    src: str
    maybe: bool


@dataclass(frozen=True)
class InputExpired:
    """``obj.attr`` (``obj`` a parameter, ``self`` included) left holding a lent handle
    whose block ended inside the function (``with snap.lend() as v: writer.keep(v)``):
    the caller's object holds an expired handle."""

    obj: str
    attr: str
    line: int  # of the lend
    maybe: bool


@dataclass(frozen=True)
class ResultField:
    """A field of the object a function returns, left moved on some path: its transfer
    may still be pending in ``holder`` (a field of the same object), where the
    function's take-back (``slot.host = slot.pending.wait()`` at ``line``) did not
    run."""

    holder: str
    line: int
    maybe: bool


@dataclass
class InputSummary:
    params: dict[str, InputMove] = field(default_factory=dict)
    free: dict[str, InputMove] = field(default_factory=dict)
    stores: list[InputStore] = field(default_factory=list)
    expired: list[InputExpired] = field(default_factory=list)
    #: parameters whose entry object the function may return (``return a if c else
    #: b``), and whether it always returns the one of them it names
    returns: tuple[str, ...] = ()
    returns_must: bool = False
    #: fields of the returned object that may be left moved
    results: dict[str, ResultField] = field(default_factory=dict)
    #: parameter -> a method it calls on the object it was given that a lend of that
    #: object forbids (``with buf.write()``, ``buf.free()``): rule 3 at the call
    writes: dict[str, str] = field(default_factory=dict)

    def empty(self) -> bool:
        return not (
            self.params
            or self.free
            or self.stores
            or self.expired
            or self.returns
            or self.results
            or self.writes
        )


class _Local:
    """Per scope: its functions callable by name, and their summaries."""

    __slots__ = ("_bound", "_scope", "funcs", "summaries")

    def __init__(self, scope: Scope) -> None:
        self._scope = scope
        self._bound: frozenset[str] | None = None
        #: name -> the one function (def or lambda) the scope binds to it, where the
        #: scope binds that name nowhere else
        self.funcs: dict[str, FuncItem] = {}
        self.summaries: dict[str, InputSummary | None] = {}
        seen: dict[str, FuncItem | None] = {}
        for name, fn in nested_functions(scope.body):
            if name is not None:
                seen[name] = fn if name not in seen else None
        if not seen:
            return
        counts: dict[str, int] = {}
        _count_bindings(scope.body, counts)
        rebound = {n for names in scope.writes.values() for n in names} | set(scope.shared)
        for name, one in seen.items():
            if one is not None and counts.get(name) == 1 and name not in rebound:
                self.funcs[name] = one

    def bound(self) -> frozenset[str]:
        """Names local to the scope (bound and not declared ``global``, parameters)."""
        if self._bound is None:
            node = self._scope.node
            names = set(bound_and_declared(node.body)[0]) if isinstance(node, FuncItem) else set()
            if isinstance(node, FuncItem):
                names.update(a.variable.name for a in node.arguments)
            self._bound = frozenset(names - self._scope.shared)
        return self._bound


def _count_bindings(body: Sequence[Node], counts: dict[str, int]) -> None:
    """How many statements of a scope (not of nested functions) bind each name."""
    todo: list[Node] = list(body)
    while todo:
        n = todo.pop()
        names: set[str] = set()
        if isinstance(n, AssignmentStmt):
            for lv in n.lvalues:
                target_names(lv, names)
        elif isinstance(n, OperatorAssignmentStmt):
            target_names(n.lvalue, names)
        elif isinstance(n, ForStmt):
            target_names(n.index, names)
        elif isinstance(n, WithStmt):
            for t in n.target:
                if t is not None:
                    target_names(t, names)
        elif isinstance(n, AssignmentExpr):
            names.add(n.target.name)
        elif isinstance(n, DelStmt):
            target_names(n.expr, names)
        elif isinstance(n, (FuncDef, Decorator, OverloadedFuncDef)):
            counts[n.name] = counts.get(n.name, 0) + 1
            continue  # a nested body binds its own names
        elif isinstance(n, LambdaExpr):
            continue
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        todo.extend(child_nodes(n))


def _is_method(fn: FuncItem) -> bool:
    return (
        isinstance(fn, FuncDef)
        and not isinstance(fn.info, FakeInfo)
        and not fn.is_static
        and not fn.is_class
    )


#: Declared parameter types that hold no handle: such parameters are not followed.
def _writes(fn: FuncItem, params: set[str], me: str | None) -> dict[str, str]:
    """Parameters (never rebound) on which ``fn``'s own body calls a method that a lend
    of the object forbids (``write``, ``free``): param -> the first such method. Also
    attributes of them, and of ``self`` (``me``), keyed ``"self.host"``, where the body
    calls such a method on ``self.host`` before any store into it (``inject()`` writing
    ``self.host`` in place, then re-uploading it)."""
    out: dict[str, str] = {}
    bases = params | ({me} if me else set())
    if not bases:
        return out
    found: dict[str, tuple[tuple[int, int], str]] = {}
    stored: dict[str, tuple[int, int]] = {}
    # (an attribute counts only where the body calls it on every path that returns:
    # not in a branch, a loop body or a handler; ``if self.dirty: ...`` may not run)
    # (nor after a statement that may leave early, ``if not self.dirty: return``, or
    # that calls code which may rebind it, ``self._flip()``)
    body = fn.body.body
    cut = next((i for i, n in enumerate(body) if _may_cut(n, me)), len(body))
    todo: list[tuple[Node, bool]] = [(n, i > cut) for i, n in enumerate(body)]
    while todo:
        n, branch = todo.pop()
        if isinstance(n, FuncItem):
            continue  # a nested function runs when it is called
        if (
            isinstance(n, CallExpr)
            and isinstance(n.callee, MemberExpr)
            and n.callee.name in BORROW_BREAKERS["lend"]
            and not branch
        ):
            recv = n.callee.expr
            key = _attr_key(recv, bases)
            if isinstance(recv, NameExpr) and recv.name in params:
                key = recv.name
            if key is not None:
                at = (n.line, n.column)
                if key not in found or at < found[key][0]:
                    found[key] = (at, n.callee.name)
        for lv in stored_targets(n):
            key = _attr_key(lv, bases)
            if key is not None:
                at = (n.line, n.column)
                stored[key] = min(stored.get(key, at), at)
        sure: tuple[Node, ...] = ()
        if isinstance(n, IfStmt):
            sure = (n.expr[0],)
        elif isinstance(n, (WhileStmt, ForStmt)):
            sure = (n.expr,)
        elif isinstance(n, TryStmt) and n.finally_body is not None:
            sure = (n.finally_body,)  # (its body may be cut short by a handled error)
        inner = isinstance(n, (IfStmt, WhileStmt, ForStmt, TryStmt, MatchStmt))
        todo.extend((c, branch or (inner and c not in sure)) for c in child_nodes(n))
    for key, (at, method) in found.items():
        if "." not in key or key not in stored or at < stored[key]:
            out[key] = method
    return out


def _may_cut(n: Node, me: str | None) -> bool:
    """May the statements after ``n`` not run (a ``return``, ``raise``, ``break`` or
    ``continue`` inside it) or find ``self``'s attributes rebound (a call of a method
    of ``self``, or one ``self`` is passed to)?"""
    todo: list[Node] = list(child_nodes(n)) if not isinstance(n, CallExpr) else [n]
    while todo:
        c = todo.pop()
        if isinstance(c, FuncItem):
            continue
        if isinstance(c, (ReturnStmt, RaiseStmt, BreakStmt, ContinueStmt)):
            return True
        if me is not None and isinstance(c, CallExpr):
            callee = c.callee
            if (
                isinstance(callee, MemberExpr)
                and isinstance(callee.expr, NameExpr)
                and callee.expr.name == me
            ):
                return True  # ``self._flip()``
            if any(isinstance(a, NameExpr) and a.name == me for a in c.args):
                return True
        todo.extend(child_nodes(c))
    return False


def _attr_key(e: Node, bases: set[str]) -> str | None:
    """``base.attr`` with ``base`` one of ``bases``: ``"base.attr"``; else None."""
    if isinstance(e, MemberExpr) and isinstance(e.expr, NameExpr) and e.expr.name in bases:
        return f"{e.expr.name}.{e.name}"
    return None


def _params(fn: FuncItem) -> list[str]:
    """The parameters an argument path can reach (not ``self``, ``*args``, ``**kw``)."""
    out = [a.variable.name for a in fn.arguments if a.kind not in (ARG_STAR, ARG_STAR2)]
    return out[1:] if _is_method(fn) and out else out


def _may_hold_handle(fn: FuncItem) -> set[str]:
    """The parameters whose declared type may hold a handle (not ``int``, ``str``...)."""
    names = set(_params(fn))
    t = fn.type if isinstance(fn, FuncDef) else None
    if isinstance(t, CallableType):
        for n, at in zip(t.arg_names, t.arg_types, strict=False):
            if n in names and is_inert(at):
                names.discard(n)
    return names


def _worth(fn: FuncItem, names: set[str]) -> bool:
    """A cheap syntactic filter: one of ``names`` is passed to a call (also in a list
    or tuple display), or assigned (an alias or a store). Otherwise no summary."""
    todo: list[Node] = list(fn.body.body)
    lends = False  # a ``with x.lend()`` in the body ...
    kept = False  # ... and a method called on one of ``names`` (it may keep the handle)
    while todo:
        n = todo.pop()
        exprs: list[Expression] = []
        if isinstance(n, CallExpr):
            exprs = list(n.args)
            if isinstance(n.callee, MemberExpr):
                lends = lends or n.callee.name == "lend"
                recv = n.callee.expr
                kept = kept or (isinstance(recv, NameExpr) and recv.name in names and bool(n.args))
            if lends and kept:
                return True
        elif isinstance(n, AssignmentStmt):
            exprs = [n.rvalue]
        if (
            isinstance(n, CallExpr)
            and isinstance(n.callee, NameExpr)
            and (n.callee.fullname or "").startswith("builtins.")
        ):
            exprs = []  # len(), print(), float(): they keep nothing
        for e in exprs:
            items = e.items if isinstance(e, (ListExpr, TupleExpr)) else [e]
            if any(isinstance(i, NameExpr) and i.name in names for i in items):
                return True
        todo.extend(child_nodes(n))
    return False


class Inputs:
    """The registry of input summaries (one per plugin instance, owned by
    ``classes.Objects``, whose ``call`` hook applies them)."""

    def __init__(
        self,
        objects: ObjectModel,
        fine_grained: bool = False,
        foreign: Callable[[str], bool] | None = None,
        modules: Callable[[str], MypyFile | None] | None = None,
        untyped: list[Var] | None = None,
    ) -> None:
        self._objects = objects
        self._foreign: Callable[[str], bool] = foreign or (lambda _name: False)
        self._fine_grained = fine_grained
        self._final: dict[str, InputSummary | None] = {}
        self._cache: dict[str, tuple[tuple[object, ...], InputSummary | None]] = {}
        #: functions being summarised (innermost last, with their cache keys): a call
        #: of one is recursion
        self._stack: list[tuple[FuncItem, str]] = []
        self._cyclic: set[int] = set()  # positions in _stack that are part of a cycle
        #: keys of functions found to be part of a cycle: silence, always
        self._in_cycle: set[str] = set()
        self._incomplete = False
        #: Variables met without their types by the summaries being built (the list
        #: ``classes.Objects`` shares), and key -> (the last incomplete summary of a
        #: module-level function or method, the variables it lacked the types of):
        #: while mypy has inferred none of them, that draft is what a rebuild gives.
        self._untyped: list[Var] = untyped if untyped is not None else []
        self._drafts: dict[str, tuple[InputSummary | None, list[Var]]] = {}
        #: What functions read and rebind of their module's globals.
        self.globals = ModuleGlobals(fine_grained, modules)
        #: the last call resolved (``_resolve``), in which analysis, and the answer
        self._last: (
            tuple[CallExpr, Analysis, tuple[FuncItem, str, str | None, InputSummary] | None] | None
        ) = None

    # -- summaries ---------------------------------------------------------------
    def summary(self, fn: FuncItem, label: str, local: _Local | None = None) -> InputSummary | None:
        """``fn``'s summary (``local``: the scope defining it, for a nested function or a
        lambda; None for a module-level function or a method)."""
        if not self._stack:
            self._incomplete = False
        if not has_syntax(fn):
            return None  # read from mypy's cache: no body
        if fn.is_generator or fn.is_async_generator:
            return None  # calling it runs nothing yet: its body runs when iterated
        # A coroutine function's body runs when the coroutine is awaited or run as a
        # task, but the coroutine holds its arguments from the call on (as a Rust
        # ``async fn`` captures them): what it moves is moved at the call (``_apply``).
        if isinstance(fn, FuncDef) and (
            in_library(fn.fullname) or (local is None and self._foreign(fn.fullname))
        ):
            return None  # the library's own functions (their signatures say what they do),
            # installed packages and stubs
        fp: tuple[object, ...] = (fn.line, fn.column, fn.end_line, fn.end_column)
        key = f"{fn.fullname if isinstance(fn, FuncDef) else ''}@{fp}"
        for i, (busy, _) in enumerate(self._stack):
            if busy is fn:
                self._cyclic.update(range(i, len(self._stack)))
                return None  # recursion: the whole cycle is silence
        if key in self._in_cycle or len(self._stack) >= MAX_DEPTH:
            return None
        if local is not None:
            if label in local.summaries:
                return local.summaries[label]
        elif not self._fine_grained and key in self._final:
            return self._final[key]
        else:
            cached = self._cache.get(key)
            if cached is not None and cached[0] == fp:
                return cached[1]
            draft = self._drafts.get(key)
            if (
                draft is not None
                and draft[1]
                and not self._fine_grained
                and all(v.type is None for v in draft[1])
            ):
                self._incomplete = True
                self._untyped.extend(draft[1])
                return draft[0]
        self._stack.append((fn, key))
        depth = len(self._stack) - 1
        start = len(self._untyped)
        try:
            result, incomplete = self._compute(fn, label)
        finally:
            self._stack.pop()
        if depth in self._cyclic:
            self._cyclic.discard(depth)
            self._in_cycle.add(key)
            result = None
        self._incomplete = self._incomplete or incomplete
        if not self._incomplete and not self._cyclic:
            if local is not None:
                local.summaries[label] = result
            else:
                self._cache[key] = (fp, result)
                self._final[key] = result
                self._drafts.pop(key, None)
        elif local is None and not self._cyclic:
            self._drafts[key] = (result, self._untyped[start:])
        return result

    def busy(self) -> bool:
        """Is a summary being built (a query now comes from inside it)?"""
        return bool(self._stack)

    def incomplete(self) -> bool:
        """Was the last summary built while a type it needs was not inferred?"""
        return self._incomplete

    def _compute(self, fn: FuncItem, label: str) -> tuple[InputSummary | None, bool]:
        params = _params(fn)
        locals_, declared = bound_and_declared(fn.body)
        free: set[str] = set()
        through = False  # reads globals only through the module functions it calls
        if not _is_method(fn):  # a method's free names are globals: not followed
            own = (locals_ - declared) | {a.variable.name for a in fn.arguments}
            free = {root_name(r) for r in free_reads(fn)} - own
            effects = self.globals.effects(fn) if is_module_function(fn) else None
            if effects is not None:  # ``kick()`` calling ``send()``, which moves BUF
                more = {root_name(r) for r in effects.reads} - own - free
                through = bool(more)
                free |= more
        handles = _may_hold_handle(fn)
        returned, must = _returned(fn, handles - locals_)
        result, backs = _result_take_backs(fn, set(params) | {_self_of(fn) or ""})
        writes = _writes(fn, (handles & set(params)) - locals_, _self_of(fn))
        if not through and not backs and not _worth(fn, handles | free):
            if returned or writes:
                return InputSummary(returns=returned, returns_must=must, writes=writes), False
            return None, False
        scope = SummaryScope(fn, self._untyped)
        if backs:
            scope.seeds[result] = [(x, t) for x, t, _ in backs]
        scope.objects = self._objects
        entry = State()
        sentinels: dict[int, str] = {}
        for p in params:
            fact = Fact(CallExpr(NameExpr("<entry>"), [], [], []), "<entry>", False)
            fact.line = -1
            scope.add(fact)
            sentinels[fact.id] = p
            entry.put(p, frozenset({("N", fact.id, 0)}))
            entry.alias[ghost(p)] = {p: True}
        an = Analysis(scope, entry)
        if _is_method(fn) and isinstance(fn, FuncDef):
            an.inferred[fn.arguments[0].variable.name] = fn.info
        an.run()
        incomplete = scope.unknown or an.unresolved
        out = InputSummary()
        final = an.final
        if final is None:
            return out, incomplete  # never returns normally: nothing after the call runs

        me = _self_of(fn)

        def move(name: str, atoms: frozenset[tuple[str, int, int]]) -> InputMove | None:
            movers = sorted(
                (scope.facts[a[1]] for a in atoms if a[0] == "M" and a[1] not in sentinels),
                key=lambda f: (f.line, f.id),
            )
            if not movers:
                return None
            f = movers[0]
            holder = ""
            if me is not None:  # ``self.pending = self.s.upload(h, ...)``: take it from there
                for key, held in sorted(final.vals.items()):
                    if (
                        key.startswith(me + ".")
                        and "[" not in key
                        and any(a[1] == f.id and a[0] in "PE" for a in held)
                    ):
                        holder = key[len(me) + 1 :]
                        break
            # A move made by a further call (a helper's or a method's summary) is named
            # by that call: "moved into push_sync() at line 40 in outer()".
            return InputMove(
                name=name,
                callee=f.origin[:-2] if f.origin else f.callee,
                line=f.end[0] if f.origin else f.line,
                origin=label,
                producer=f.producer,
                handles=f.handles,
                maybe=any(a[0] != "M" for a in atoms),
                holder=holder,
            )

        for p in params:
            mv = move(p, final.get(ghost(p)))
            if mv is not None:
                out.params[p] = mv
        written = set(declared) & locals_  # global/nonlocal names it rebinds: not followed
        for key, atoms in sorted(final.vals.items()):
            root = root_name(key)
            if "[" in key or key.startswith("<"):
                continue  # an index, or a ghost
            if root in free and root not in written:
                mv = move(key, atoms)
                if mv is not None:
                    out.free[key] = mv
            elif "." in key and (root in params or root == me):
                srcs = {sentinels[a[1]] for a in atoms if a[0] == "N" and a[1] in sentinels}
                ended = sorted(
                    scope.facts[a[1]].line
                    for a in atoms
                    if a[0] == "X" and a[1] not in sentinels and scope.facts[a[1]].lend
                )
                if ended and "[" not in key:  # ``writer.keep(view)`` inside its lend block
                    maybe = any(a[0] != "X" for a in atoms)
                    out.expired.append(InputExpired(root, key[len(root) + 1 :], ended[0], maybe))
                if len(srcs) == 1:
                    src = next(iter(srcs))
                    maybe = any(a[0] != "N" for a in atoms)
                    out.stores.append(InputStore(root, key[len(root) + 1 :], src, maybe))
        out.returns, out.returns_must = returned, must
        for x, t, line in backs:  # fields of the returned object its take-back missed
            atoms = final.get(f"{result}.{x}")
            seeded = {a for a in atoms if a[0] == "M" and scope.facts[a[1]].callee == _SEED}
            if seeded:
                out.results[x] = ResultField(t, line, maybe=atoms != seeded)
        out.writes = writes
        return (None if out.empty() else out), incomplete

    # -- at a call -----------------------------------------------------------------
    def local(self, scope: Scope) -> _Local:
        loc = scope.local_inputs
        if not isinstance(loc, _Local):
            loc = _Local(scope)
            scope.local_inputs = loc
        return loc

    def target(
        self, an: Analysis, call: CallExpr
    ) -> tuple[FuncItem, str, _Local | None, str | None] | None:
        """The function a call runs, as far as it can be followed: (the function, its
        label, the defining scope for a local one, the receiver path for a method)."""
        callee = call.callee
        if isinstance(callee, NameExpr):
            loc = self.local(an.scope) if callee.name in an.scope.local_funcs else None
            fn = loc.funcs.get(callee.name) if loc is not None else None
            if fn is not None and isinstance(callee.node, (FuncDef, Var)):
                # A module-level def is cached by its full name; a nested one or a
                # lambda (no full name of its own) on the scope defining it.
                nested = isinstance(an.scope.node, FuncItem) or isinstance(fn, LambdaExpr)
                return fn, callee.name, (loc if nested else None), None
            node = callee.node
            if isinstance(node, FuncDef) and isinstance(node.info, FakeInfo):
                return node, node.name, None, None
            return None
        if isinstance(callee, SuperExpr):  # ``super().push(host)``: the base's method
            found = super_method(an, callee)
            method = found[0].get_method(callee.name) if found is not None else None
            if found is None or not isinstance(method, FuncDef) or not _is_method(method):
                return None
            return method, f"{found[0].name}.{callee.name}", None, found[1]
        if isinstance(callee, MemberExpr):
            node = callee.node
            if isinstance(node, FuncDef) and isinstance(node.info, FakeInfo):
                return node, node.name, None, None  # mod.f(...)
            chain = path_chain(callee.expr)
            if chain is not None:
                info = _receiver(an, callee.expr)
            elif isinstance(callee.expr, CallExpr):  # ``Uploader(s, dev).push(host)``
                info = result_info(callee.expr, an.infer)
            else:
                info = None
            if info is None or in_library(info.module_name):
                return None
            method = info.get_method(callee.name)
            if not isinstance(method, FuncDef) or not _is_method(method):
                return None  # decorated, overloaded, static, or class methods: not followed
            recv = chain[-1][0] if chain is not None else None
            return method, f"{info.name}.{callee.name}", None, recv
        return None

    def apply(self, an: Analysis, call: CallExpr, st: State) -> None:
        """The summary of the function ``call`` runs, applied to ``st``; for a function
        of the caller's own module, also what it reads and rebinds of the module's
        globals (``module_globals.py``)."""
        peer = self.globals.peer(an.scope.node, call)
        effects = self.globals.effects(peer) if peer is not None else None
        if (
            peer is None
            or effects is None
            or peer.is_coroutine  # (what its body reads and rebinds, it does later)
            or not self.globals.known(module_of(peer))
        ):
            self._apply(an, call, st, None)
            return
        own = self.local(an.scope).bound()  # names the caller binds: not the globals
        for q in sorted(effects.reads):
            if root_name(q) not in own:
                an.read_free(q, call, st, peer.name)  # before what it does to them

        def movable() -> set[str]:
            """Its moves of globals that no code out of sight may rebind (asked only
            for a callee that moves some: finding them walks the whole module once)."""
            unfollowed = self.globals.unfollowed(module_of(peer)) or frozenset()
            return {root_name(k) for k in effects.reads} - own - unfollowed - effects.writes

        self._apply(an, call, st, movable)
        for name in sorted(effects.writes - own):
            an.rebind(name, st, call)

    def _resolve(
        self, an: Analysis, call: CallExpr
    ) -> tuple[FuncItem, str, str | None, InputSummary] | None:
        """The function ``call`` runs, its label, receiver path and summary (None: not
        followed). The last answer is kept: ``x = f(...)`` asks for it again at the
        binding (``bound``)."""
        last = self._last
        if last is not None and last[0] is call and last[1] is an:
            return last[2]
        found = self.target(an, call)
        out = None
        if found is not None:
            fn, label, local, recv = found
            summary = self.summary(fn, label, local)
            out = (fn, label, recv, summary) if summary is not None else None
        self._last = (call, an, out)
        return out

    def apply_deferred(self, an: Analysis, call: CallExpr, st: State, thread: bool = False) -> None:
        """``call`` is ``f(*bound)`` as an executor, a thread or the event loop will run
        it later (``blocks.deferred_call``): the arguments belong to it from here on, so
        what ``f`` moves of them is moved now (as a Rust closure ``move``s what it
        captures into the thread that runs it)."""
        self._apply(an, call, st, None, deferred=True, thread=thread)

    def borrow_breaks(self, an: Analysis, call: CallExpr) -> None:
        """Rule 3 at the call: a function that calls ``write()``/``free()`` on an
        argument (or a method that does on ``self.host``) inside that object's lend.
        Checked before the call's other effects (a method that writes ``self.host``
        and re-uploads it rebinds it, which ends what the analysis knows of the lend)."""
        resolved = self._resolve(an, call)
        if resolved is None:
            return
        fn, label, recv, summary = resolved
        if fn.is_coroutine or not summary.writes:
            return  # (a coroutine's body runs later)
        actuals = _actuals(call, fn)
        if actuals is None:
            return
        for p, method in sorted(summary.writes.items()):  # ``normalise(buf)`` in buf's lend
            base, dot, attr = p.partition(".")
            if dot:  # ``self.inject()`` writing ``self.host`` in its lend
                obj = recv if base == _self_of(fn) else _path_of(call, actuals, base)
                if obj is not None:
                    an.borrow_conflict(call, f"{obj}.{attr}", f"{method}()@{label}", -1)
                continue
            for j in actuals.get(p, ()):
                chain = path_chain(call.args[j])
                if chain is not None:
                    an.borrow_conflict(call.args[j], chain[-1][0], f"{method}()", -1)

    def _apply(
        self,
        an: Analysis,
        call: CallExpr,
        st: State,
        globals_: Callable[[], set[str]] | None,
        deferred: bool = False,
        thread: bool = False,
    ) -> None:
        """``globals_``: the caller's module globals the callee's moves apply to.
        ``deferred``: the call is not made here but bound to run later (no fact of the
        call's own: its declared ``Consumed`` parameters move through the summary)."""
        resolved = self._resolve(an, call)
        if resolved is None:
            return
        fn, label, recv, summary = resolved
        actuals = _actuals(call, fn)
        if actuals is None:
            return
        own = None if deferred else an.scope.fact_for(call, an.infer)
        taken = set(own.consumed) if own is not None else set()
        carried = not deferred and _returns_transfer(call, fn)
        # a coroutine's body runs when it is awaited (or as a task), a deferred call's
        # in another thread: only the moves apply at the call
        later = deferred or fn.is_coroutine
        declared = set() if deferred else _consumed_params(fn)
        rhs = (DEFERRED_THREAD if thread else DEFERRED) if deferred else ""
        rhs = rhs or (f"await {label}(...)" if later else "")
        for p, mv in sorted(summary.params.items()):
            if p in declared:
                continue  # the signature says it: the call is a move already
            if deferred and mv.maybe:
                continue  # which path the worker took, only its result says: silence
            for j in actuals.get(p, ()):
                if j in taken:
                    continue
                arg = call.args[j]
                items = arg.items if isinstance(arg, (ListExpr, TupleExpr)) else [arg]
                for item in items:
                    chain = path_chain(item)
                    if chain is not None:
                        path = chain[-1][0]
                        self._move(an, call, st, path, mv, label, own, carried, p, rhs)
        if later:
            return
        callee = call.callee
        if summary.free and isinstance(callee, NameExpr) and callee.name in an.scope.local_funcs:
            for key, mv in sorted(summary.free.items()):  # a function this scope defines
                self._move(an, call, st, key, mv, label, own, carried, "")
        elif summary.free and globals_ is not None and (shared := globals_()):
            for key, mv in sorted(summary.free.items()):  # a global of the caller's module
                if root_name(key) in shared:
                    self._move(an, call, st, key, mv, label, own, carried, "")
        for store in summary.stores:
            obj = recv if store.obj == _self_of(fn) else _path_of(call, actuals, store.obj)
            src = _path_of(call, actuals, store.src)
            if obj is None or src is None:
                continue
            target = f"{obj}.{store.attr}"
            if any(a[0] == "P" for a in st.get(target)):
                continue  # it held a pending transfer: not followed (silence)
            an.rebind(target, st, call)
            if store.maybe:
                an.compound_keys.add(target)
                st.put(target, OWN_SET | st.get(src))
            else:
                an.alias_field(target, src, st)
            an.stored_by[target] = (label, call.line, st.get(src))

        for ex in summary.expired:
            obj = recv if ex.obj == _self_of(fn) else _path_of(call, actuals, ex.obj)
            if obj is not None:
                self._expire(an, call, st, f"{obj}.{ex.attr}", ex, label)

    def _expire(
        self, an: Analysis, call: CallExpr, st: State, path: str, ex: InputExpired, label: str
    ) -> None:
        """``path`` holds the lent handle of a block that ended inside ``label``."""
        key = ("<expired>", label, ex.attr, path)
        fact = an.scope.origin_facts.get(key)
        if fact is None:
            fact = Fact(CallExpr(NameExpr("lend"), [], [], []), "lend", True)
            fact.line = ex.line
            fact.end = (call.line, call.column)
            fact.lend = True
            fact.origin = label + "()"
            an.scope.add(fact)
            an.scope.origin_facts[key] = fact
            an.lend_blocks[fact.id] = f'"with ... .lend()" (in {label}())'
        an.rebind(path, st, call)
        an.compound_keys.add(path)
        dead = frozenset({("X", fact.id, 0)})
        st.put(path, dead | OWN_SET if ex.maybe else dead)

    def bound(self, an: Analysis, name: str, call: CallExpr, st: State) -> None:
        """``name = f(a, b)`` where f may return its parameter's entry object: ``name``
        is that argument (an alias of it, "maybe" where f may return another value), so
        a move of ``a``, or the end of ``a``'s lend block, reaches ``name``. Where f
        returns an object with a field still moved (``ResultField``), ``name.<field>``
        is moved and its transfer held by ``name.<holder>``."""
        seeds = an.scope.seeds.get(name) if isinstance(an.scope, SummaryScope) else None
        for x, t in seeds or ():
            _seed(an, f"{name}.{x}", f"{name}.{t}", st)
        resolved = self._resolve(an, call)
        if resolved is None:
            return
        fn, label, _recv, summary = resolved
        if fn.is_coroutine:
            return  # ``c = f(a)`` binds a coroutine object, not what its body returns
        for x, rf in sorted(summary.results.items()):
            self._result_move(an, call, st, name, x, rf, label)
        if not summary.returns:
            return
        actuals = _actuals(call, fn)
        if actuals is None:
            return
        srcs = [_path_of(call, actuals, p) for p in summary.returns]
        paths = sorted({p for p in srcs if p is not None and p != name})
        if not paths or len(paths) != len(srcs):
            return  # an argument that is no path (a call, a literal): not followed
        atoms = frozenset().union(*(st.get(p) for p in paths))
        must = summary.returns_must and len(paths) == 1
        an.compound_keys.update(p for p in paths if "." in p or "[" in p)
        st.put(name, atoms if must else atoms | OWN_SET)
        if len(st.alias) >= MAX_ALIASES:
            del st.alias[next(iter(st.alias))]
        st.alias[name] = {p: must for p in paths}

    def _result_move(
        self,
        an: Analysis,
        call: CallExpr,
        st: State,
        name: str,
        x: str,
        rf: ResultField,
        label: str,
    ) -> None:
        path, hpath = f"{name}.{x}", f"{name}.{rf.holder}"
        key = ("<result>", label, x, name)
        fact = an.scope.origin_facts.get(key)
        if fact is None:
            fact = Fact(CallExpr(NameExpr(label), [], [], []), label, True)
            fact.line = rf.line
            fact.end = (call.line, call.column)
            fact.origin = label + "()"
            fact.holder = hpath
            fact.via = (
                f'{label}() returned it with its transfer perhaps still pending in "'
                f'{display_path(hpath)}" (the wait() at line {rf.line} in {label}() does '
                "not run on every path)"
            )
            an.scope.add(fact)
            an.scope.origin_facts[key] = fact
        an.moved[fact.id] = [path]
        an.compound_keys.update((path, hpath))
        moved = frozenset({("M", fact.id, 0)})
        st.put(path, moved | OWN_SET if rf.maybe else moved)
        st.put(hpath, frozenset({("P", fact.id, 0)}) | OWN_SET)

    def _move(
        self,
        an: Analysis,
        call: CallExpr,
        st: State,
        path: str,
        mv: InputMove,
        label: str,
        own: Fact | None,
        carried: bool,
        param: str,
        rhs: str = "",
    ) -> None:
        """``rhs``: how the caller gets the handle back, where not by calling the
        function (``await f(...)``, ``<future>.result()``): for the message."""
        if mv.producer and carried:
            # The function returns the transfer: ``t = send(host)`` carries the move
            # (``host = t.wait()``). Until mypy has checked the call there is no fact
            # for its result, and nothing is moved yet.
            if own is None or not own.producer:
                return
            fact = own
        else:
            key = ("<inputs>", label, mv.name, path)
            cached = an.scope.origin_facts.get(key)
            if cached is None:
                cached = Fact(CallExpr(NameExpr(mv.callee), [], [], []), mv.callee, True)
                cached.line = mv.line
                cached.end = (call.line, call.column)
                cached.handles = mv.handles
                cached.origin = mv.origin + "()"
                cached.param = param
                cached.free = not param
                shown = path_chain(call.callee)
                cached.called = display_path(shown[-1][0]) if shown else mv.origin
                if rhs:
                    cached.called = rhs
                recv = path_chain(call.callee.expr) if isinstance(call.callee, MemberExpr) else None
                if mv.holder and recv is not None:
                    cached.holder = f"{recv[-1][0]}.{mv.holder}"  # ``host = st.pending.wait()``
                # Its transfer, if any, is out of the caller's reach: not a producer here.
                an.scope.add(cached)
                an.scope.origin_facts[key] = cached
            fact = cached
        moved = an.moved.setdefault(fact.id, [])
        if path not in moved:
            moved.append(path)
        atoms = frozenset({("M", fact.id, 0)})
        an.invalidate(path, st.get(path) | atoms if mv.maybe else atoms, st)

    def local_matters(self, scope: Scope, name: str) -> bool:
        """Does a call by name of the scope's own function ``name`` move or keep what it
        is given (or a variable it reads)?"""
        if name not in scope.local_funcs:
            return False
        loc = self.local(scope)
        fn = loc.funcs.get(name)
        if fn is None:
            return False
        nested = isinstance(scope.node, FuncItem) or isinstance(fn, LambdaExpr)
        return self.summary(fn, name, loc if nested else None) is not None

    def matters(self, fn: FuncItem, label: str) -> bool:
        """Does a call of ``fn`` move or store what it is given?"""
        return self.summary(fn, label) is not None


def super_method(an: Analysis, e: SuperExpr) -> tuple[TypeInfo, str] | None:
    """``super().m()`` in a method of class C: (the class after C in C's MRO that
    defines ``m``, the name of ``self``). The MRO is C's own: a subclass of C mixing in
    another class may insert one before it (not followed, as for ``obj.m()``)."""
    fn = an.scope.node
    if not isinstance(fn, FuncDef) or isinstance(fn.info, FakeInfo) or e.call.args:
        return None  # ``super(C, obj)``: not followed
    me = _self_of(fn)
    if me is None:
        return None
    mro = fn.info.mro
    for base in mro[1:] if mro and mro[0] is fn.info else ():
        if e.name in base.names:
            return (base, me) if base.fullname != "builtins.object" else None
    return None


_SEED: Final = "<returned>"


def _seed(an: Analysis, path: str, hpath: str, st: State) -> None:
    """``path`` moved by a sentinel whose transfer ``hpath`` holds (a summary's view of
    an object it got from a call and takes ``path`` back from ``hpath``)."""
    fact = Fact(CallExpr(NameExpr(_SEED), [], [], []), _SEED, False)
    fact.line = -1
    an.scope.add(fact)
    an.moved[fact.id] = [path]
    an.compound_keys.update((path, hpath))
    st.put(path, frozenset({("M", fact.id, 0)}))
    st.put(hpath, frozenset({("P", fact.id, 0)}))


def _result_take_backs(fn: FuncItem, excluded: set[str]) -> tuple[str, list[tuple[str, str, int]]]:
    """The local every ``return`` of ``fn`` names (not a parameter), and its take-backs
    ``r.x = r.t.wait()`` (x, t, line) made under tests of ``r.t`` alone (``r.t is not
    None``, ``r.t.done()``), outside loops and ``try``: the function says that ``r.t``
    holds the transfer of ``r.x``, so where it does not wait, ``r.x`` may still be
    moved when ``r`` is returned. A take-back under any other test (a state flag of
    ``r``, a parameter) is another protocol: not followed (silence)."""
    names: set[str] = set()
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, Decorator, OverloadedFuncDef)):
            continue
        if isinstance(n, ReturnStmt):
            if not isinstance(n.expr, NameExpr):
                return "", []
            names.add(n.expr.name)
            continue
        todo.extend(child_nodes(n))
    if len(names) != 1 or names & excluded:
        return "", []
    r = next(iter(names))
    out: list[tuple[str, str, int]] = []

    def visit(stmts: Sequence[Node], tests: list[Expression]) -> None:
        for st in stmts:
            if isinstance(st, IfStmt):
                for cond, body in zip(st.expr, st.body, strict=False):
                    visit(body.body, [*tests, cond])
                if st.else_body is not None:
                    visit(st.else_body.body, [*tests, *st.expr])
                continue
            for back in take_backs(st, r):
                if all(_only_tests(c, r, back[1]) for c in tests):
                    out.append((*back, st.line))

    visit(fn.body.body, [])
    return r, out


def take_backs(st: Node, r: str) -> list[tuple[str, str]]:
    """``r.x = r.t.wait()``, ``r.x, r.t = r.t.wait(), None`` -> [(x, t)]: the
    take-backs the assignment ``st`` makes, each naming the attribute that holds the
    transfer of another."""
    if not isinstance(st, AssignmentStmt) or len(st.lvalues) != 1:
        return []
    lv, rv = st.lvalues[0], st.rvalue
    pairs = [(lv, rv)]
    if isinstance(lv, TupleExpr) and isinstance(rv, TupleExpr) and len(lv.items) == len(rv.items):
        pairs = list(zip(lv.items, rv.items, strict=True))
    out: list[tuple[str, str]] = []
    for x, v in pairs:
        if not (
            isinstance(x, MemberExpr)
            and isinstance(x.expr, NameExpr)
            and x.expr.name == r
            and isinstance(v, CallExpr)
            and not v.args
            and isinstance(v.callee, MemberExpr)
            and v.callee.name == "wait"
        ):
            continue
        held = v.callee.expr
        if (
            isinstance(held, MemberExpr)
            and isinstance(held.expr, NameExpr)
            and held.expr.name == r
            and held.name != x.name
        ):
            out.append((x.name, held.name))
    return out


def _only_tests(cond: Expression, r: str, t: str) -> bool:
    """Does ``cond`` read nothing but ``r.t`` (and None/True/False)?"""
    todo: list[Node] = [cond]
    while todo:
        n = todo.pop()
        if isinstance(n, MemberExpr) and isinstance(n.expr, NameExpr) and n.expr.name == r:
            if n.name != t:
                return False
            continue
        if isinstance(n, NameExpr) and n.name not in ("None", "True", "False"):
            return False
        todo.extend(child_nodes(n))
    return True


def _returned(fn: FuncItem, params: set[str]) -> tuple[tuple[str, ...], bool]:
    """The parameters (of ``params``: never rebound in the body) whose entry object a
    ``return`` hands back, by name or as an arm of a conditional expression; and
    whether every ``return`` is the bare name of the one parameter returned."""
    if not params:
        return (), False
    names: set[str] = set()
    bare = True
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, Decorator, OverloadedFuncDef)):
            continue  # a nested function's returns are its own
        if isinstance(n, ReturnStmt):
            arms: list[Expression | None] = [n.expr]
            bare = bare and isinstance(n.expr, NameExpr)
            while arms:
                e = arms.pop()
                if isinstance(e, ConditionalExpr):
                    arms.extend((e.if_expr, e.else_expr))
                elif isinstance(e, NameExpr) and e.name in params:
                    names.add(e.name)
            continue
        todo.extend(child_nodes(n))
    return tuple(sorted(names)), bare and len(names) == 1


def _self_of(fn: FuncItem) -> str | None:
    return fn.arguments[0].variable.name if _is_method(fn) and fn.arguments else None


def _consumed_params(fn: FuncItem) -> set[str]:
    t = fn.type if isinstance(fn, FuncDef) else None
    if not isinstance(t, CallableType):
        return set()
    return {n for n, at in zip(t.arg_names, t.arg_types, strict=False) if n and is_consumed(at)}


def _actuals(call: CallExpr, fn: FuncItem) -> dict[str, list[int]] | None:
    """Parameter name -> indices of the call's arguments passed to it (None where star
    arguments, or a lambda called with keywords, make it unsure)."""
    names = [a.variable.name for a in fn.arguments]
    if _is_method(fn):
        names = names[1:]
    t = fn.type if isinstance(fn, FuncDef) else None
    if isinstance(t, CallableType):
        mapped = map_actuals(call, t, _is_method(fn))
        if mapped is None or len(mapped) != len(names):
            return None
        return {n: js for n, js in zip(names, mapped, strict=True)}
    # a lambda (or an unannotated def): positional arguments only
    if any(k != ARG_POS for k in call.arg_kinds) or len(call.args) > len(names):
        return None
    return {names[j]: [j] for j in range(len(call.args))}


def _returns_transfer(call: CallExpr, fn: FuncItem) -> bool:
    """Is the call's declared result a transfer (which then carries what it moved)?"""
    t: Type | None = fn.type if isinstance(fn, FuncDef) else None
    if t is None and isinstance(call.callee, NameExpr) and isinstance(call.callee.node, Var):
        t = call.callee.node.type  # a lambda bound to a name: the name's declared type
    p = get_proper_type(t) if t is not None else None
    return isinstance(p, CallableType) and ret_kind(p.ret_type) == "producer"


def _path_of(call: CallExpr, actuals: dict[str, list[int]], param: str) -> str | None:
    js = actuals.get(param, [])
    if len(js) != 1:
        return None
    chain = path_chain(call.args[js[0]])
    return chain[-1][0] if chain is not None else None


def _receiver(an: Analysis, e: Expression) -> TypeInfo | None:
    fn = an.scope.node
    if (
        isinstance(e, NameExpr)
        and isinstance(fn, FuncDef)
        and _is_method(fn)
        and fn.arguments
        and e.name == fn.arguments[0].variable.name
    ):
        return fn.info
    info = an.receiver(e)
    if isinstance(info, str):
        an.unresolved = True  # not inferred yet: try again in a later analysis
        return None
    return info
