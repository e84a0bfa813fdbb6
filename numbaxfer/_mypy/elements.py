"""Container elements: a list, dict or tuple (a name or an attribute path) whose
*elements* were moved in a loop, so that no path of the analysis names the moved ones.

The model (docs/static-checker.md, "Containers"): the elements of a container ``C``
"may be moved" after a loop (``for`` or comprehension) that moved

* the loop variable bound to its elements (``for h in C``, ``for k, h in C.items()``,
  ``C.values()``, ``enumerate(C)``, ``zip(A, C)``, ``reversed(C)``, ...), not rebound in
  the body; or
* an element ``C[i]`` whose index the loop rebinds (``for i in range(k): s.upload(C[i],
  ...)``; also ``j = i % k`` or ``i += 1`` in the body): at the next iteration the
  analysis can no longer tell which element it was.

The state holds this as the path ``C[$*]`` (the *mark*; its atoms are ``("M", fact,
ELEMENT)``). It becomes visible when the loop ends: inside the loop every iteration moves
another element, as far as the checker knows. Reading an element (``C[x]``, also by an
index no path spells, ``C[f(i)]``, a loop variable bound to one, passing ``C`` to a
numbaxfer call or to a parameter typed to hold handles) is then a use. Any store into
the container (``C[k] = ...``, a mutating method, ``del C[k]``, rebinding ``C``),
passing it (or the object holding it) to any other call, or calling a method of its
owner clears the mark: those may put the elements back, and silence beats a false
report. A loop whose body stores into ``C`` leaves no mark for it.
Metadata (``len(C)``, ``C[i].shape``) is no use.

*Attributes* of the elements get marks of their own, ``C[$*].host`` (``for job in jobs:
submit(job, s)``, ``submit`` moving ``job.host``): a read of ``C[k].host``, of ``job.host``
in a later ``for job in C``, or of ``x.host`` after ``x = C.popleft()`` (``pop``, ``get``,
``next(iter(C))``, ``C[k]``; these hand out the element state as "may") is a use. The
element objects may be reachable by names the analysis does not connect to ``C`` (an
alias made before ``C`` was built, a copy of ``C``), so besides what clears a whole mark,
an attribute mark is cleared by any call of code other than numbaxfer's, numpy's, a few
builtins' and the methods of builtin containers (``user_call``), by any store into an
attribute of that name, by ``yield`` and ``await``; a loop whose body holds one of these
clears it on every path out of the loop.

A loop that completes the loop variable bound to elements of a container of transfers
(``for t in ups: t.wait()``) leaves ``W`` atoms in the same mark (``EITHER`` where some
iteration did not): a later completion of an element is a second one."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    AwaitExpr,
    CallExpr,
    Decorator,
    DictionaryComprehension,
    Expression,
    FuncBase,
    FuncDef,
    GeneratorExpr,
    IndexExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    OverloadedFuncDef,
    RefExpr,
    SetComprehension,
    SliceExpr,
    TupleExpr,
    TypeInfo,
    Var,
    YieldExpr,
    YieldFromExpr,
)
from mypy.types import (
    CallableType,
    Instance,
    NoneType,
    Overloaded,
    TupleType,
    Type,
    UnionType,
    get_proper_type,
)

from .facts import Fact, map_actuals, static_type
from .names import HANDLES, MEMBER_OF, ONE_DONE
from .paths import display_path, path_chain, path_extends
from .state import OWN, OWN_SET, Atom, Atoms, Chain, State
from .syntax import FORMATTERS, bound_and_declared, child_nodes, skips_some, stored_targets

#: The suffix of a container's mark: ``hosts[$*]`` (no index expression spells ``*``).
MARK: Final = "[$*]"
#: The index of an element read by an index the path syntax cannot spell (``C[f(i)]``):
#: no expression spells it, so no other read or store ever shares its key.
UNSPELLED: Final = "[...]"
#: An element transfer that a loop may or may not have completed (``if t.done():
#: t.wait()``): handed on, as far as the engine knows (``t.completed`` narrows it).
EITHER: Final[Atom] = ("E", -1, 0)
#: The ``extra`` of an ``M`` atom that stands for "moved as an element of a container".
ELEMENT: Final = 1
#: Builtins that only look at a container or iterate it: neither a use nor a store.
VIEWS: Final = frozenset(
    {
        "builtins.zip",
        "builtins.enumerate",
        "builtins.reversed",
        "builtins.iter",
        "builtins.list",
        "builtins.tuple",
        "builtins.sorted",
        "builtins.len",
        "builtins.bool",
        "builtins.isinstance",
        "builtins.id",
        "builtins.type",
    }
)
#: Iterations of ``VIEWS`` that yield the container's elements (``for h in reversed(C)``).
_SAME_ELEMENTS: Final = frozenset(
    {"builtins.reversed", "builtins.iter", "builtins.list", "builtins.tuple", "builtins.sorted"}
)
#: Methods of a container that neither store into it nor hand its elements on.
READ_METHODS: Final = frozenset(
    {"keys", "values", "items", "index", "count", "copy", "__len__", "__contains__"}
)


#: Methods that take out (or look up) one element and store nothing: what they return
#: may be any element (``job = jobs.popleft()``), and the others keep their state.
TAKE_METHODS: Final = frozenset({"pop", "popleft", "get"})
#: Methods that add an element and take none out (a completed element stays in).
_ADDS: Final = frozenset({"append", "appendleft", "add", "extend", "insert", "put", "put_nowait"})
#: Builtins that call no code of the program (with positional arguments only: a
#: ``key=`` may be a callable that does): no attribute of an element changes in them.
_INERT_BUILTINS: Final = (
    VIEWS
    | FORMATTERS
    | frozenset(
        {
            "builtins.float",
            "builtins.int",
            "builtins.abs",
            "builtins.min",
            "builtins.max",
            "builtins.sum",
            "builtins.round",
            "builtins.range",
            "builtins.next",
            "builtins.any",
            "builtins.all",
        }
    )
)
#: Modules whose functions and methods call no code of the program (given no callable).
INERT_MODULES: Final = frozenset({"builtins", "collections", "numbaxfer", "numpy"})


def mark_of(container: str) -> str:
    return container + MARK


def marked_container(key: str) -> str | None:
    """``C`` of a mark ``C[$*]`` or of an attribute mark ``C[$*].host`` (else None)."""
    i = key.find(MARK)
    return key[:i] if i > 0 else None


def element_attr_of(key: str) -> tuple[str, str] | None:
    """(``C``, ``.host``) for ``C[$i].host`` (the last top-level index followed by
    attributes only), None for any other path."""
    dot = key.find(".", key.rfind("]") + 1) if "]" in key else -1
    if dot < 0 or "[" in key[dot:]:
        return None
    container = container_of(key[:dot])
    if container is None or MARK in key:
        return None
    return container, key[dot:]


def inert_module(name: str) -> bool:
    return name.split(".", 1)[0] in INERT_MODULES


def value_type(e: Expression, depth: int = 0) -> Type | None:
    """The declared or inferred type of ``e``; for a call of a method or a function,
    its declared return type (``host.read()``: an NDArray)."""
    if isinstance(e, IndexExpr) and depth < 4:
        base = get_proper_type(value_type(e.base, depth + 1) or NoneType())
        if isinstance(base, Instance) and base.args and inert_module(base.type.module_name):
            return base.args[-1]  # ``jobs[0]`` of a list[Job], a dict[str, Job]
        return None
    if isinstance(e, MemberExpr) and depth < 4:
        base = get_proper_type(value_type(e.expr, depth + 1) or NoneType())
        sym = base.type.get(e.name) if isinstance(base, Instance) else None
        if sym is not None and isinstance(sym.node, Var):
            return sym.node.type
        return static_type(e)
    if not isinstance(e, CallExpr):
        return static_type(e)
    callee = e.callee
    sig: object = None
    if isinstance(callee, RefExpr) and isinstance(callee.node, FuncDef):
        sig = callee.node.type
    elif isinstance(callee, MemberExpr) and depth < 4:
        recv = value_type(callee.expr, depth + 1)
        p = get_proper_type(recv) if recv is not None else None
        method = p.type.get_method(callee.name) if isinstance(p, Instance) else None
        sig = method.type if isinstance(method, FuncBase) else None
    return sig.ret_type if isinstance(sig, CallableType) else None


def inert_receiver(e: Expression) -> bool:
    """Is ``e`` typed (declared or inferred already) as an object of a class from a
    module whose methods call no code of the program (a union of them, None too)?"""
    t = value_type(e)
    p = get_proper_type(t) if t is not None else None
    items = p.items if isinstance(p, UnionType) else [p]
    for it in items:
        it = get_proper_type(it)
        if isinstance(it, NoneType):
            continue
        if not isinstance(it, Instance) or not inert_module(it.type.module_name):
            return False
    return True


def maybe_callable(a: Expression) -> bool:
    """Could the argument ``a`` be a function of the program that the callee calls (a
    lambda, a function or class by name, a bound method, a variable typed as callable)?
    Functions and classes of numbaxfer, numpy and the builtins (``np.float32``) are not."""
    if isinstance(a, LambdaExpr):
        return True
    if isinstance(a, RefExpr) and isinstance(
        a.node, (FuncBase, Decorator, TypeInfo, OverloadedFuncDef)
    ):
        return not inert_module(a.node.fullname)
    t: Type | None = None
    if isinstance(a, MemberExpr):
        base = value_type(a.expr)
        p = get_proper_type(base) if base is not None else None
        if not isinstance(p, Instance):
            return a.node is None  # a module's variable is known; an unknown receiver not
        sym = p.type.get(a.name)
        node = sym.node if sym is not None else None
        if isinstance(node, Decorator):
            return not node.var.is_property
        if isinstance(node, (FuncDef, OverloadedFuncDef)):
            return not node.is_property
        if not isinstance(node, Var):
            return True
        t = node.type
    else:
        t = value_type(a)
    p = get_proper_type(t) if t is not None else None
    return isinstance(p, (CallableType, Overloaded)) or (
        isinstance(p, Instance)
        and not inert_module(p.type.module_name)
        and p.type.get_method("__call__") is not None
    )


def user_call(e: CallExpr) -> bool:
    """May this call run code of the program, which may restore what an attribute mark
    says is moved? False only for numbaxfer's and numpy's functions and methods, a few
    builtins and the methods of builtin containers, none given a keyword argument (a
    ``key=`` callable) or a lambda; True where the callee is not known."""
    if any(n is not None for n in e.arg_names):
        return True
    callee = e.callee
    name = callee.fullname if isinstance(callee, RefExpr) else ""
    if name.startswith("builtins.") and name != "builtins.iter":
        return name not in _INERT_BUILTINS  # they call none of their positional arguments
    if any(maybe_callable(a) for a in e.args):
        return True
    if name:
        return not inert_module(name)
    if isinstance(callee, MemberExpr):
        return not inert_receiver(callee.expr)
    return True


def container_of(key: str) -> str | None:
    """``hosts`` of ``hosts[$i]`` (the path before the last top-level index)."""
    if not key.endswith("]"):
        return None
    depth = 0
    for i in range(len(key) - 1, -1, -1):
        ch = key[i]
        if ch == "]":
            depth += 1
        elif ch == "[":
            depth -= 1
            if depth == 0:
                return key[:i] if i else None
    return None


def element_pairs(target: Expression, seq: Expression) -> list[tuple[str, str, bool]]:
    """(name, container, keyed by name) for the names of a ``for``/comprehension target
    that are bound to elements of a container path: ``for h in C``, ``for k, h in
    C.items()``, ``for i, h in enumerate(C)``, ``for s, h in zip(A, C)``, ..."""
    out: list[tuple[str, str, bool]] = []
    _pairs(target, seq, out, 0)
    return out


def _pairs(
    target: Expression, seq: Expression, out: list[tuple[str, str, bool]], depth: int
) -> None:
    if depth > 4:
        return
    items = target.items if isinstance(target, (TupleExpr, ListExpr)) else None
    args = _view_args(seq) if isinstance(seq, CallExpr) else None
    if isinstance(seq, CallExpr) and args is not None:
        callee = seq.callee
        if isinstance(callee, RefExpr) and callee.fullname in VIEWS:
            name = callee.fullname
            if name == "builtins.zip" and items is not None and len(items) == len(args):
                for t, a in zip(items, args, strict=True):
                    _pairs(t, a, out, depth + 1)
            elif name == "builtins.enumerate" and items is not None and len(items) == 2:
                if args:
                    _pairs(items[1], args[0], out, depth + 1)
            elif name in _SAME_ELEMENTS and args:
                _pairs(target, args[0], out, depth + 1)
            return
        if isinstance(callee, MemberExpr) and not seq.args:
            base = path_chain(callee.expr)
            if base is None:
                return
            if callee.name == "values" and isinstance(target, NameExpr):
                out.append((target.name, base[-1][0], True))
            elif (
                callee.name == "items"
                and items is not None
                and len(items) == 2
                and isinstance(items[1], NameExpr)
            ):
                out.append((items[1].name, base[-1][0], True))
        return
    chain = path_chain(seq)
    if chain is not None and isinstance(target, NameExpr):
        out.append((target.name, chain[-1][0], False))


#: Keywords of a view that change neither which elements it yields nor their order:
#: ``zip(..., strict=True)``, ``enumerate(C, start=1)``.
_VIEW_KEYWORDS: Final = frozenset({"strict", "start"})


def _view_args(seq: CallExpr) -> list[Expression] | None:
    """The positional arguments of a call that may be a view (``zip(A, C,
    strict=True)``), or None where it has ``*args``/``**kwargs`` or another keyword."""
    args: list[Expression] = []
    for a, kind, name in zip(seq.args, seq.arg_kinds, seq.arg_names, strict=True):
        if kind == ARG_POS:
            args.append(a)
        elif kind != ARG_NAMED or name not in _VIEW_KEYWORDS:
            return None
    return args


#: Mutable container types: a function taking one may put the elements back.
_MUTABLE: Final = frozenset(
    {"typing.MutableSequence", "typing.MutableMapping", "typing.MutableSet"}
)


def _reads_handles(t: Type) -> bool:
    """Is a parameter of this declared type given the elements to read: a read-only
    container of handles (``Sequence[Host]``, ``Mapping[str, Host]``, a tuple)? A
    mutable one (``list[Host]``) may be how the callee puts them back: not a use."""
    p = get_proper_type(t)
    if isinstance(p, Instance) and any(b.fullname in _MUTABLE for b in p.type.mro):
        return False
    return _holds_handles(t)


def _holds_handles(t: Type, depth: int = 0) -> bool:
    """Does a declared type hold numbaxfer handles (``Sequence[PinnedArray[...]]``,
    ``Mapping[str, Host]``, a tuple or union of them)?"""
    if depth > 6:
        return False
    p = get_proper_type(t)
    if isinstance(p, Instance):
        if any(b.fullname in HANDLES for b in p.type.mro):
            return True
        return any(_holds_handles(a, depth + 1) for a in p.args)
    if isinstance(p, TupleType):
        return any(_holds_handles(a, depth + 1) for a in p.items)
    if isinstance(p, UnionType):
        return any(_holds_handles(a, depth + 1) for a in p.items)
    return False


def _declared_param(call: CallExpr, idx: int) -> Type | None:
    """The declared type of the parameter that argument ``idx`` of a call of a plain
    function goes to (None where it is not known)."""
    callee = call.callee
    node = callee.node if isinstance(callee, RefExpr) else None
    sig = getattr(node, "type", None)
    if not isinstance(sig, CallableType):
        return None
    actuals = map_actuals(call, sig, False)
    if actuals is None:
        return None
    for formal, args in enumerate(actuals):
        if idx in args:
            return sig.arg_types[formal]
    return None


class LoopElements:
    """What one loop (``for``, ``while`` or comprehension) moved of containers' elements,
    collected over its iterations and turned into marks when it ends."""

    __slots__ = (
        "attr_lent",
        "attr_moved",
        "attr_seen",
        "attr_via",
        "attr_waited",
        "attr_wpartial",
        "first",
        "last",
        "moved",
        "pairs",
        "partial",
        "stmt",
        "via",
        "waited",
        "wpartial",
    )

    def __init__(self, stmt: Node, pairs: list[tuple[str, str, bool]]) -> None:
        self.stmt = stmt
        self.first = stmt.line
        self.last = stmt.end_line or stmt.line
        self.pairs = pairs
        #: container -> facts that moved some of its elements in this loop
        self.moved: dict[str, set[int]] = {}
        #: containers that some iteration left without a new move (so "may")
        self.partial: set[str] = set()
        #: container -> how it reads in messages ("through the loop variable "h"")
        self.via: dict[str, str] = {}
        #: (container, ".host") -> facts that moved that attribute of its elements
        self.attr_moved: dict[tuple[str, str], set[int]] = {}
        #: per iteration end state: (container, the attributes it saw moved there)
        self.attr_seen: list[tuple[str, frozenset[str]]] = []
        #: elements whose attribute it moved by index (``jobs[$i]``)
        self.attr_via: set[str] = set()
        #: container -> the completions (W atoms) of its elements, through the loop
        #: variable, in this loop (``for t in ups: t.wait()``)
        self.waited: dict[str, set[Atom]] = {}
        #: containers that some iteration left without completing the element
        self.wpartial: set[str] = set()
        #: (container, ".transfer") -> completions (W atoms) of that attribute of its
        #: elements, through the loop variable (``collect(job)`` waiting job.transfer)
        self.attr_waited: dict[tuple[str, str], set[Atom]] = {}
        #: ... those some iteration left without completing it
        self.attr_wpartial: set[tuple[str, str]] = set()
        #: (container, ".stream") -> lent handles (L atoms) that attribute of its
        #: elements was left holding (``w.attach(ls)`` in a lend block): they expire
        #: with the block, whichever element holds them
        self.attr_lent: dict[tuple[str, str], set[Atom]] = {}


class Elements:
    """The container-element part of one ``flow.Analysis`` (one run over one scope)."""

    __slots__ = (
        "_rebound",
        "_restores",
        "_stores",
        "active",
        "attr_marks",
        "call_dropped",
        "compound_keys",
        "discarded",
        "discarded_loops",
        "done_by",
        "done_lines",
        "drained_by",
        "facts",
        "holders",
        "how",
        "kept",
        "keyed",
        "member_names",
        "moved_in",
        "owner_call",
        "owner_dropped",
        "rest_of",
        "targets",
        "touched_at",
        "touched_dropped",
        "wait_calls",
        "wait_loops",
    )

    def __init__(
        self,
        facts: list[Fact],
        compound_keys: set[str],
        stores: dict[int, frozenset[str]] | None = None,
    ) -> None:
        self.facts = facts
        #: the analysis' set of compound paths (a mark is one: rebinding ``C`` drops it)
        self.compound_keys = compound_keys
        #: True once a mark was put into some state (before that, every hook is a no-op)
        self.active = False
        #: the whole marks the current call of a method of their owner dropped
        #: (``ring.push()``), for that method's summary to put back what it leaves alone
        self.owner_dropped: dict[str, Atoms] = {}
        self.owner_call: CallExpr | None = None
        #: every mark ``owner_call`` dropped (its arguments' marks, the attribute marks
        #: any call of the program's code clears), as it found them: a summary of the
        #: function it calls sees the elements as the call does
        self.call_dropped: dict[str, Atoms] = {}
        #: line of a wait() that completed one element of a container -> the container
        self.done_lines: dict[int, str] = {}
        #: line of a call of a method that completed an element of its object's
        #: container and left it there -> the method (``batch.collect(name)``; messages)
        self.done_by: dict[int, str] = {}
        #: line of a call of a method that completes every element of its object's
        #: container -> (the method, the line of its wait()) (messages)
        self.drained_by: dict[int, tuple[str, int]] = {}
        #: the call ``touched`` last looked at, and the completed-element marks it
        #: dropped there (as it found them): the summary of the method called sees the
        #: container as the call does (``batch.close()`` draining ``batch.pending``)
        self.touched_at: CallExpr | None = None
        self.touched_dropped: dict[str, Atoms] = {}
        #: fact id -> the container whose elements it moved
        self.moved_in: dict[int, str] = {}
        #: container -> how its elements were moved (for messages), and the loop's line
        self.how: dict[str, tuple[str, int]] = {}
        #: containers known to be keyed by name (a dict: ``.items()``, ``.values()``)
        self.keyed: set[str] = set()
        #: producer fact id -> the container its transfers are kept in (``ups``)
        self.holders: dict[int, str] = {}
        #: producer fact id -> line of a ``t.wait()`` whose result was discarded
        self.discarded: dict[int, int] = {}
        #: container of transfers -> line of a loop ``for t in ups: t.wait()`` that
        #: discards what the waits give back
        self.discarded_loops: dict[str, int] = {}
        #: loop variable -> the container whose elements it is bound to
        self.targets: dict[str, str] = {}
        #: container -> the attributes of its elements that have marks (``.host``)
        self.attr_marks: dict[str, set[str]] = {}
        #: fact id -> the attribute of the elements it moved (``.host``; messages)
        self.rest_of: dict[int, str] = {}
        #: line of a wait() that completed elements of a container in a loop -> (the
        #: container, the loop's line) (messages)
        self.wait_loops: dict[int, tuple[str, int]] = {}
        #: line of a call whose function completes the transfer it is given, or every
        #: element of a container (or an attribute of each) -> (the function's name, the
        #: container or "") (messages)
        self.wait_calls: dict[int, tuple[str, str]] = {}
        #: line of a wait() of a transfer kept in a container -> its name (messages)
        self.member_names: dict[int, str] = {}
        #: True once a ``ONE_DONE`` or ``MEMBER_OF`` key was put into some state
        self.kept = False
        # per-run caches of syntax (a run never sees a node change)
        #: loop body id -> ``stores(body)``: the scope's (its body's names and callees
        #: do not change while mypy checks it; every analysis of the scope shares it)
        self._stores: dict[int, frozenset[str]] = stores if stores is not None else {}
        self._restores: dict[int, tuple[bool, frozenset[str]]] = {}
        self._rebound: dict[int, frozenset[str]] = {}

    # -- loops -----------------------------------------------------------------------
    def loop(self, stmt: Node, heads: list[tuple[Expression, Expression]]) -> LoopElements:
        """A loop starts: ``heads`` are its (target, iterable) pairs (none for ``while``)."""
        pairs: list[tuple[str, str, bool]] = []
        for target, seq in heads:
            pairs.extend(element_pairs(target, seq))
        if pairs:
            body = getattr(stmt, "body", None)
            if isinstance(body, Node):
                rebound = self._rebound.get(id(stmt))
                if rebound is None:
                    rebound = frozenset(bound_and_declared(body)[0])
                    self._rebound[id(stmt)] = rebound
                pairs = [p for p in pairs if p[0] not in rebound]
        return LoopElements(stmt, pairs)

    def bind_targets(self, le: LoopElements, st: State) -> None:
        """The loop variables of ``le`` now hold elements: those of a marked container
        hold its mark (``for h in hosts: h.read()`` after the elements were moved)."""
        for name, container, keyed in le.pairs:
            self.targets[name] = container
            if keyed:
                self.keyed.add(container)
            mark = st.vals.get(mark_of(container)) if self.active else None
            if mark is not None:
                st.put(name, mark)
            done = st.vals.get(container + ONE_DONE)
            body = getattr(le.stmt, "body", None)
            skips = isinstance(body, Node) and skips_some(body)
            if done is not None and not skips:  # ``ups[0].wait()`` before ``for t in ups``
                st.put(name, st.get(name) | done)  # (a loop that skips some: silence)
            for rest in sorted(self.attr_marks.get(container, ())):
                got = st.vals.get(mark_of(container) + rest)
                if got is not None:  # ``for job in jobs: job.host.read()``
                    self.compound_keys.add(name + rest)
                    st.put(name + rest, got)

    def iteration_end(self, le: LoopElements, states: Iterable[State | None]) -> None:
        """An iteration of ``le`` ends in each of ``states``: a loop variable moved by a
        call of this loop moved an element of its container."""
        for name, container, _keyed in le.pairs:
            for st in states:
                if st is None:
                    continue
                atoms = st.get(name)
                new = {a[1] for a in atoms if a[0] == "M" and self._inside(le, a[1])}
                if new:
                    le.moved.setdefault(container, set()).update(new)
                    le.via.setdefault(container, f'through the loop variable "{name}"')
                if not new or len(new) < len(atoms):  # not moved on some path here
                    le.partial.add(container)
                # ``for t in ups: t.wait()`` completed an element (a transfer) in place
                done = {a for a in atoms if a[0] == "W" and le.first <= a[2] <= le.last}
                if done:
                    le.waited.setdefault(container, set()).update(done)
                if not done or len(done) < len(atoms):
                    le.wpartial.add(container)
                # ``submit(job, s)`` moved ``job.host``: that attribute of an element
                prefix = name + "."
                seen: set[str] = set()
                for key, atoms in st.vals.items():
                    if not key.startswith(prefix) or "[" in key or "<" in key:
                        continue
                    lent = {a for a in atoms if a[0] == "L"}
                    if lent:  # ``w.attach(ls)``: ``w.stream`` is the lent ``ls`` now
                        split = (container, key[len(name) :])
                        le.attr_lent.setdefault(split, set()).update(lent)
                    done = {a for a in atoms if a[0] == "W" and le.first <= a[2] <= le.last}
                    if done:  # ``collect(job)`` completed ``job.transfer`` in place
                        split = (container, key[len(name) :])
                        le.attr_waited.setdefault(split, set()).update(done)
                        if len(done) < len(atoms):
                            le.attr_wpartial.add(split)
                    fids = {
                        a[1]
                        for a in atoms
                        if a[0] == "M" and a[2] != ELEMENT and self._made_inside(le, a[1])
                    }
                    if fids:
                        rest = key[len(name) :]
                        if all(a[0] == "M" for a in atoms):  # moved on every path here
                            seen.add(rest)
                        le.attr_moved.setdefault((container, rest), set()).update(fids)
                        le.via.setdefault(container, f'through the loop variable "{name}"')
                le.attr_seen.append((container, frozenset(seen)))

    def lost(self, key: str, atoms: Atoms, le: LoopElements | None) -> None:
        """``key`` (an element ``C[$i]``) stops being tracked because a name in its index
        is rebound inside the loop ``le``: its moves become the container's."""
        if le is None:
            return
        split = element_attr_of(key)
        if split is not None:  # ``submit(jobs[i], s)`` moved ``jobs[$i].host``
            fids = {a[1] for a in atoms if a[0] == "M" and self._made_inside(le, a[1])}
            if fids:
                le.attr_moved.setdefault(split, set()).update(fids)
                le.via.setdefault(split[0], f'as "{display_path(key)}"')
                le.attr_via.add(key[: len(key) - len(split[1])])
            return
        container = container_of(key)
        if container is None or container.endswith(MARK):
            return
        new = {a[1] for a in atoms if a[0] == "M" and self._inside(le, a[1])}
        if new:
            le.moved.setdefault(container, set()).update(new)
            le.via.setdefault(container, f'as "{display_path(key)}"')

    def exit(self, le: LoopElements, states: Iterable[State | None], body: Node | None) -> None:
        """The loop ``le`` ends in each of ``states``: a container its body stores into
        loses its mark (the body may have put the elements back), the others get the
        moves of this loop."""
        for name, container, _keyed in le.pairs:
            if self.targets.get(name) == container:
                del self.targets[name]
        if not (
            le.moved or le.attr_moved or le.waited or le.attr_waited or le.attr_lent or self.active
        ):
            return
        stores = self.stores(body) if body is not None else None
        restored: tuple[bool, frozenset[str]] | None = None  # asked only for a mark
        for st in states:
            if st is None:
                continue
            marked = [k for k in st.vals if MARK in k] if self.active and body is not None else []
            if marked and restored is None and body is not None:
                restored = self.restores(body)
            calls, attrs = restored or (False, frozenset())
            if stores or calls or attrs:
                for key in marked:
                    owner = marked_container(key)
                    if owner is None:
                        continue
                    if key.endswith(MARK):
                        if stores and _touched(owner, stores):
                            del st.vals[key]
                    elif (
                        calls
                        or _restored(key, attrs)
                        or (stores and _touched_elements(owner, stores, frozenset()))
                    ):
                        del st.vals[key]  # the body may have put the attribute back
            self._attr_marks(le, st, stores)
            for container, fids in le.moved.items():
                if stores and _touched(container, stores):
                    continue
                atoms: set[Atom] = {("M", f, ELEMENT) for f in fids}
                if container in le.partial:
                    atoms.add(OWN)
                key = mark_of(container)
                self.compound_keys.add(key)
                st.put(key, st.get(key) | atoms if key in st.vals else frozenset(atoms))
                self.active = True
                for f in fids:
                    self.moved_in.setdefault(f, container)
                self.how.setdefault(container, (le.via.get(container, ""), le.first))
            for container, done in le.waited.items():
                if stores and _touched(container, stores):
                    continue  # ``ups.pop(k).wait()``, ``del ups[k]``: not in place
                atoms = set(done)
                if container in le.wpartial:
                    atoms.add(EITHER)  # some element may still be pending
                key = mark_of(container)
                self.compound_keys.add(key)
                st.put(key, st.get(key) | atoms if key in st.vals else frozenset(atoms))
                self.active = True
                for a in done:
                    self.wait_loops.setdefault(a[2], (container, le.first))

    def _attr_marks(self, le: LoopElements, st: State, stores: frozenset[str] | None) -> None:
        """The attribute marks the loop ``le`` makes in ``st``, its exit state: the
        completions of an attribute of its elements, then the moves; the lent handles
        an attribute of its elements holds, whatever the body did to the elements (a
        lent handle stays one until its block ends: only a rebinding of that attribute
        in the iteration, which the end state shows, puts it out of reach)."""
        for (container, rest), lent in sorted(le.attr_lent.items()):
            self._put_attr_mark(container, rest, set(lent) | {OWN}, st)
        for (container, rest), done in sorted(le.attr_waited.items()):
            if stores and _touched_elements(container, stores, le.attr_via):
                continue
            partial = (container, rest) in le.attr_wpartial  # some iteration left it pending
            self._put_attr_mark(container, rest, set(done) | ({EITHER} if partial else set()), st)
            for a in done:
                self.wait_loops.setdefault(a[2], (container, le.first))
        for (container, rest), fids in sorted(le.attr_moved.items()):
            if stores and _touched_elements(container, stores, le.attr_via):
                continue  # the body hands another element on, or stores into it: silence
            atoms: set[Atom] = {("M", f, ELEMENT) for f in fids}
            if any(c == container and rest not in seen for c, seen in le.attr_seen):
                atoms.add(OWN)  # some iteration left it without a new move
            self._put_attr_mark(container, rest, atoms, st)
            for f in fids:
                self.moved_in.setdefault(f, container)
                self.rest_of.setdefault(f, rest)
            self.how.setdefault(container, (le.via.get(container, ""), le.first))

    def _put_attr_mark(self, container: str, rest: str, atoms: set[Atom], st: State) -> None:
        key = mark_of(container) + rest
        self.compound_keys.add(key)
        st.put(key, st.get(key) | atoms if key in st.vals else frozenset(atoms))
        self.active = True
        self.attr_marks.setdefault(container, set()).add(rest)

    def _made_inside(self, le: LoopElements, fid: int) -> bool:
        """Was fact ``fid`` made by a call inside the loop (a move a summary made: at
        the call that applied it)?"""
        if not 0 <= fid < len(self.facts):
            return False
        f = self.facts[fid]
        line = f.end[0] if f.origin else f.line
        return le.first <= line <= le.last

    def _inside(self, le: LoopElements, fid: int) -> bool:
        if not 0 <= fid < len(self.facts):
            return False
        f = self.facts[fid]
        return not f.origin and le.first <= f.line <= le.last

    def stores(self, body: Node) -> frozenset[str]:
        """Paths that a loop body may store into or hand to other code: targets of an
        index or whole assignment, ``del``, receivers of methods other than
        ``READ_METHODS``, arguments of calls other than numbaxfer's, views and
        formatting (cached per run)."""
        got = self._stores.get(id(body))
        if got is not None:
            return got
        out: set[str] = set()
        todo: list[Node] = [body]
        while todo:
            n = todo.pop()
            for lv in stored_targets(n):
                ch = path_chain(lv.base if isinstance(lv, IndexExpr) else lv)
                if ch is not None:
                    out.add(ch[-1][0])
            if isinstance(n, CallExpr):
                callee = n.callee
                if isinstance(callee, MemberExpr) and callee.name not in READ_METHODS:
                    ch = path_chain(callee.expr)
                    if ch is not None:
                        out.add(ch[-1][0])
                name = callee.fullname if isinstance(callee, RefExpr) else ""
                if not (name.startswith("numbaxfer.") or name in VIEWS or name in FORMATTERS):
                    for a in n.args:
                        ch = path_chain(a)
                        if ch is not None:
                            out.add(ch[-1][0])
            todo.extend(child_nodes(n))
        frozen = frozenset(out)
        self._stores[id(body)] = frozen
        return frozen

    def restores(self, body: Node) -> tuple[bool, frozenset[str]]:
        """What in a loop body may put an attribute of an element back: (a call of the
        program's code, a ``yield`` or an ``await`` in it; the attribute names it
        assigns or deletes) (cached per run)."""
        got = self._restores.get(id(body))
        if got is not None:
            return got
        calls = False
        names: set[str] = set()
        todo: list[Node] = [body]
        while todo:
            n = todo.pop()
            if isinstance(n, CallExpr) and not calls:
                calls = user_call(n)
            elif isinstance(n, (YieldExpr, YieldFromExpr, AwaitExpr)):
                calls = True
            for lv in stored_targets(n):
                if isinstance(lv, MemberExpr):
                    names.add(lv.name)
            todo.extend(child_nodes(n))
        out = (calls, frozenset(names))
        self._restores[id(body)] = out
        return out

    # -- reads and stores --------------------------------------------------------------
    def element(self, container: str, atoms: Atoms | None, st: State) -> Atoms | None:
        """What a read of an element of ``container`` may hold: its own atoms and the
        container's mark."""
        mark = st.vals.get(mark_of(container))
        if mark is None:
            return atoms
        return mark if atoms is None else atoms | mark

    def element_of(self, key: str, st: State) -> Atoms | None:
        """What the element path ``key`` (``ups[0]``) may hold, its container's mark
        included (None where it has no atoms and there is no mark)."""
        container = container_of(key)
        if container is None:
            return st.vals.get(key)
        return self.element(container, st.vals.get(key), st)

    def unspelled(self, e: IndexExpr, st: State) -> Chain | None:
        """``parts[(i + 1) % len(parts)]``: an index the path syntax cannot spell, of a
        container with a mark: *some* element, so the chain of ``parts[...]`` (a key no
        other expression spells), whose read sees the mark. None otherwise (no mark, a
        slice: a new list, not a read of one element)."""
        if isinstance(e.index, SliceExpr):
            return None
        base = path_chain(e.base)
        if base is None or mark_of(base[-1][0]) not in st.vals:
            return None
        base.append((base[-1][0] + UNSPELLED, e))
        return base

    def element_attr(self, chain: Chain, i: int, atoms: Atoms | None, st: State) -> Atoms | None:
        """What a read of ``chain[i]``, an attribute path of an element (``jobs[0].host``,
        ``jobs[$i].host``), may hold: its own atoms and the attribute mark."""
        key = chain[i][0]
        for j in range(i - 1, 0, -1):
            prev, cur = chain[j - 1][0], chain[j][0]
            if cur[len(prev)] == "[":
                rest = key[len(cur) :]
                if rest not in self.attr_marks.get(prev, ()):
                    return atoms
                mark = st.vals.get(mark_of(prev) + rest)
                if mark is None:
                    return atoms
                return mark if atoms is None else atoms | mark
        return atoms

    def store(self, container: Expression, st: State) -> None:
        """``C[k] = ...`` (or ``del C[k]``, ``C[:] = ...``): the elements may be back."""
        ch = path_chain(container)
        if ch is not None and self.kept:
            self.changed(ch[-1][0], st)
        if not self.active:
            return
        if ch is not None:
            c = ch[-1][0]
            st.vals.pop(mark_of(c), None)
            for rest in self.attr_marks.get(c, ()):
                st.vals.pop(mark_of(c) + rest, None)

    def attr_store(self, name: str, st: State) -> None:
        """``x.host = ...`` (or ``del x.host``) with ``x`` any object: ``x`` may be an
        element (an alias the analysis does not connect): ``C[$*].host`` is cleared."""
        for container, rests in self.attr_marks.items():
            for rest in rests:
                if name in rest[1:].split("."):
                    st.vals.pop(mark_of(container) + rest, None)

    def clear_attrs(self, st: State, into: dict[str, Atoms] | None = None) -> None:
        """Code of the program runs (a call, a ``yield``, an ``await``): every attribute
        mark is cleared, whatever object it reaches the elements by (kept in ``into``)."""
        for container, rests in self.attr_marks.items():
            for rest in rests:
                atoms = st.vals.pop(mark_of(container) + rest, None)
                if atoms is not None and into is not None:
                    into[mark_of(container) + rest] = atoms

    def called_completion(
        self, container: str, rest: str, line: int, label: str, st: State
    ) -> None:
        """A call at ``line`` of ``label``, a function that completes every element of
        ``container`` (``rest`` ""), or the attribute ``rest`` of each (``.transfer``),
        and leaves them there: the mark says they are completed."""
        fids = sorted(f for f, c in self.holders.items() if c == container)
        atoms = {("W", f, line) for f in fids} or {("W", -1, line)}
        if rest:
            self._put_attr_mark(container, rest, atoms, st)
        else:
            key = mark_of(container)
            self.compound_keys.add(key)
            st.put(key, frozenset(atoms))
            self.active = True
        self.wait_calls[line] = (label, container)

    def extract(self, target: Expression, rv: Expression, st: State) -> None:
        """``x = C.popleft()`` (``pop``, ``get``, ``next(iter(C))``; ``C[k]`` for the
        attribute marks only, a read of ``C[k]`` being a use of a whole mark already):
        ``x`` may be any element, so it may hold what the marks say ("may")."""
        if not isinstance(target, NameExpr):
            return
        whole = True
        src: Expression | None = None
        if isinstance(rv, CallExpr) and isinstance(rv.callee, MemberExpr):
            if rv.callee.name in TAKE_METHODS:
                src = rv.callee.expr
        elif isinstance(rv, CallExpr) and isinstance(rv.callee, RefExpr):
            inner = rv.args[0] if rv.callee.fullname == "builtins.next" and rv.args else None
            if (
                isinstance(inner, CallExpr)
                and isinstance(inner.callee, RefExpr)
                and inner.callee.fullname == "builtins.iter"
                and len(inner.args) == 1
            ):
                src = inner.args[0]
        elif isinstance(rv, IndexExpr):
            src, whole = rv.base, False
        ch = path_chain(src) if src is not None else None
        if ch is None:
            return
        container = ch[-1][0]
        name = target.name
        mark = st.vals.get(mark_of(container)) if whole else None
        if mark is not None:
            if any(a[0] == "W" for a in mark):  # a transfer: pending or completed
                st.put(name, (st.get(name) - OWN_SET) | mark | {EITHER})
            else:
                st.put(name, st.get(name) | mark | {OWN})
        for rest in sorted(self.attr_marks.get(container, ())):
            got = st.vals.get(mark_of(container) + rest)
            if got is not None:
                self.compound_keys.add(name + rest)
                st.put(name + rest, got | {OWN})

    def call(
        self,
        e: CallExpr,
        fact: Fact | None,
        st: State,
        report: Callable[[Expression, str, Atoms, str], None],
    ) -> None:
        """A call: a method of a marked container (or of the object holding it) may put
        the elements back (``READ_METHODS`` excepted); a marked container passed to a
        numbaxfer call or to a parameter typed to hold handles has its elements used
        (``report``); passed to any other function it may get them back (cleared)."""
        self.owner_dropped, self.owner_call, self.call_dropped = {}, e, {}
        if self.attr_marks and user_call(e) and not self.handle_method(e, st):
            self.clear_attrs(st, self.call_dropped)
        marks = [k for k in st.vals if MARK in k]
        if not marks:
            return
        callee = e.callee
        name = callee.fullname if isinstance(callee, RefExpr) else ""
        if name in VIEWS or name in FORMATTERS:
            return
        recv = path_chain(callee.expr) if isinstance(callee, MemberExpr) else None
        for key in marks:
            container = marked_container(key)
            if container is None:
                continue
            whole = key.endswith(MARK)
            if recv is not None:
                r = recv[-1][0]
                if r == container and isinstance(callee, MemberExpr):
                    if callee.name not in READ_METHODS and callee.name not in TAKE_METHODS:
                        del st.vals[key]
                    continue
                if path_extends(container, r):
                    # A method of the owner may put them back; a summary of that method
                    # may know better (``classes.py`` puts back what it leaves alone).
                    if whole:
                        self.owner_dropped[key] = st.vals[key]
                    del st.vals[key]
                    continue
            for idx, a in enumerate(e.args):
                ch = path_chain(a)
                if ch is None:
                    continue
                p = ch[-1][0]
                if p == container and whole and self._uses(e, idx, fact, name):
                    report(a, container, st.vals[key], callee_name(e))
                elif p == container or path_extends(container, p):
                    self.call_dropped[key] = st.vals.pop(key)
                    break

    def handle_method(self, e: CallExpr, st: State) -> bool:
        """``job.host.read()`` where the state says the receiver is a numbaxfer handle or
        transfer (it holds a move, a transfer or a lend, here or as an element's
        attribute): a method of numbaxfer's, whatever mypy has inferred by now."""
        callee = e.callee
        return isinstance(callee, MemberExpr) and self.handle_value(callee.expr, st)

    def handle_value(self, e: Expression, st: State) -> bool:
        """Does the state say ``e`` is a numbaxfer handle or transfer (it holds a move,
        a transfer or a lend, here or as an element's attribute)?"""
        chain = path_chain(e)
        if chain is None:
            return False
        i = len(chain) - 1
        atoms = st.vals.get(chain[i][0])
        if i > 1 and chain[i][0][len(chain[i - 1][0])] == ".":
            atoms = self.element_attr(chain, i, atoms, st)
        return atoms is not None and any(a[0] in "MPEWXLG" for a in atoms)

    def _uses(self, e: CallExpr, idx: int, fact: Fact | None, name: str) -> bool:
        if name.startswith("numbaxfer.") or (fact is not None and idx in fact.consumed):
            return True
        t = _declared_param(e, idx)
        return t is not None and _reads_handles(t)

    # -- what messages need ------------------------------------------------------------
    def note_holder(
        self, target: Expression, rv: Expression, fact_of: Callable[[CallExpr], Fact | None]
    ) -> None:
        """``ups = [s.upload(h, ...) for h in hosts]``: the transfers are kept in ``ups``."""
        value: Expression | None = None
        if isinstance(rv, (ListComprehension, SetComprehension)):
            value = rv.generator.left_expr
        elif isinstance(rv, GeneratorExpr):
            value = rv.left_expr
        elif isinstance(rv, DictionaryComprehension):
            value = rv.value
        ch = path_chain(target)
        if isinstance(value, CallExpr) and ch is not None:
            f = fact_of(value)
            if f is not None and f.producer:
                self.holders.setdefault(f.id, ch[-1][0])
                if isinstance(rv, DictionaryComprehension):
                    self.keyed.add(ch[-1][0])

    def note_add(
        self,
        holder: Expression,
        item: Expression,
        st: State,
        fact_of: Callable[[CallExpr], Fact | None],
    ) -> None:
        """``ups.append(s.upload(...))`` or ``ups.append(up)``: ``ups`` keeps the transfer."""
        ch = path_chain(holder)
        if ch is None:
            return
        if isinstance(item, CallExpr):
            f = fact_of(item)
            if f is not None and f.producer:
                self.holders.setdefault(f.id, ch[-1][0])
            return
        ich = path_chain(item)
        if ich is not None:
            for a in st.get(ich[-1][0]):
                if a[0] == "P":
                    self.holders.setdefault(a[1], ch[-1][0])

    def note_discard(self, e: Expression, st: State) -> None:
        """``t.wait()`` as a statement: what it gives back is lost (the old name stays
        retired). Recorded so that the fix names a rebind at this wait."""
        if not (
            isinstance(e, CallExpr)
            and isinstance(e.callee, MemberExpr)
            and e.callee.name == "wait"
            and not e.args
        ):
            return
        ch = path_chain(e.callee.expr)
        if ch is None:
            return
        key = ch[-1][0]
        for a in st.get(key):
            if a[0] in "PE":
                self.discarded.setdefault(a[1], e.line)
        container = self.targets.get(key)
        if container is not None:
            self.discarded_loops.setdefault(container, e.line)

    def note_member(self, holder: Expression, item: Expression, st: State) -> None:
        """``pending.append(t)``: ``t``'s transfer is an element of ``pending`` too."""
        ch, ich = path_chain(holder), path_chain(item)
        if ch is None or ich is None:
            return
        atoms = frozenset(a for a in st.get(ich[-1][0]) if a[0] in "PE")
        if atoms:
            key = ich[-1][0] + MEMBER_OF + ch[-1][0]
            self.compound_keys.add(key)
            st.put(key, atoms)
            self.kept = True

    def member_done(self, key: str, pids: set[int], line: int, st: State) -> None:
        """``t.wait()``: a container ``t`` was added to (``note_member``) holds a
        completed transfer; a loop over all its elements completes it again."""
        prefix = key + MEMBER_OF
        for k in [k for k in st.vals if k.startswith(prefix)]:
            fids = sorted({a[1] for a in st.vals[k]} & pids)
            if fids:
                self._put_done(k[len(prefix) :], fids, line, st)
                self.member_names[line] = key

    def changed(self, container: str, st: State) -> None:
        """A store into ``container``, a method of it, or a call it is passed to: which
        of its elements were completed, and what it holds, is no longer known."""
        st.vals.pop(container + ONE_DONE, None)
        suffix = MEMBER_OF + container
        for k in [k for k in st.vals if k.endswith(suffix)]:
            del st.vals[k]

    def touched(self, e: CallExpr, st: State) -> None:
        """A call: a method of a container with a completed element (or of its owner)
        other than a read or an add, or a call the container is passed to, may take the
        completed element out (``ups.pop(0)``, ``ups.remove(t)``, ``retire(ups)``)."""
        kept = {
            k[: -len(ONE_DONE)] if k.endswith(ONE_DONE) else k.partition(MEMBER_OF)[2]
            for k in st.vals
            if k.endswith(ONE_DONE) or MEMBER_OF in k
        }
        if not kept:
            return
        self.touched_at, self.touched_dropped = e, {}
        callee = e.callee
        name = callee.fullname if isinstance(callee, RefExpr) else ""
        if name in VIEWS or name in FORMATTERS:
            return
        recv = path_chain(callee.expr) if isinstance(callee, MemberExpr) else None
        args = [ch[-1][0] for ch in map(path_chain, e.args) if ch is not None]
        for c in sorted(kept):
            if recv is not None and isinstance(callee, MemberExpr):
                r = recv[-1][0]
                if r == c and (callee.name in READ_METHODS or callee.name in _ADDS):
                    continue
                if r == c or path_extends(c, r):
                    if c + ONE_DONE in st.vals:
                        self.touched_dropped[c] = st.vals[c + ONE_DONE]
                    self.changed(c, st)
                    continue
            if any(a == c or path_extends(c, a) for a in args):
                self.changed(c, st)

    def _put_done(self, container: str, fids: Iterable[int], line: int, st: State) -> None:
        key = container + ONE_DONE
        self.done_lines[line] = container
        self.compound_keys.add(key)
        self.kept = True
        st.put(key, (st.get(key) - OWN_SET) | {("W", f, line) for f in fids} | {EITHER})

    def done_by_call(self, container: str, line: int, label: str, st: State) -> None:
        """A call of method ``label`` at ``line`` completed an element of ``container``
        (its object's) and left it there (``MethodSummary.elem_done``)."""
        self._put_done(container, [-1], line, st)
        self.done_by[line] = label

    def one_done(self, container: str, line: int, st: State) -> None:
        """An element of ``container``, a container the program filled with transfers
        (``holders``), is completed here (``downs[0].wait()``, ``downs[first].wait()``):
        kept under ``container + ONE_DONE`` for the loops over all of its elements
        (``bind_targets``); a read of one element does not see it (another one)."""
        fids = sorted(f for f, c in self.holders.items() if c == container)
        if fids:
            self._put_done(container, fids, line, st)

    def holder_of(self, fid: int, held_in: str | None) -> str | None:
        if fid in self.holders:
            return self.holders[fid]
        return container_of(held_in) if held_in else None


def _touched_elements(
    container: str, paths: frozenset[str], moved: set[str] | frozenset[str]
) -> bool:
    """Is ``container`` touched (``_touched``), or an element of it or something in one
    (``jobs[0]``, ``jobs[i].host``) stored into or handed on, other than the elements
    ``moved`` (``jobs[$i]``, handed to the call that moved its attribute)?"""
    for p in paths:
        if p == container or path_extends(container, p):
            return True
        if path_extends(p, container) and p[len(container)] == "[":
            close = p.find("]", len(container))
            if close < 0 or p[: close + 1] not in moved:
                return True
        elif path_extends(p, container):
            return True
    return False


def _restored(key: str, attrs: frozenset[str]) -> bool:
    """Does an assignment to one of the attribute names ``attrs`` reach the attribute
    mark ``key`` (``C[$*].host`` and ``host``)?"""
    rest = key[key.find(MARK) + len(MARK) + 1 :]
    return any(n in attrs for n in rest.split("."))


def _touched(container: str, paths: frozenset[str]) -> bool:
    """Is ``container`` one of ``paths``, or reached through one (``self.bufs`` and
    ``self``)?"""
    return any(p == container or path_extends(container, p) for p in paths)


def callee_name(e: CallExpr) -> str:
    callee = e.callee
    if isinstance(callee, RefExpr) and callee.fullname:
        return callee.fullname.rsplit(".", 1)[-1]
    if isinstance(callee, (NameExpr, MemberExpr)):
        return callee.name
    return "the call"
