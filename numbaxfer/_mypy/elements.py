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
another element, as far as the checker knows. Reading an element (``C[x]``, a loop
variable bound to one, passing ``C`` to a numbaxfer call or to a parameter typed to hold
handles) is then a use. Any store into the container (``C[k] = ...``, a mutating method,
``del C[k]``, rebinding ``C``), passing it (or the object holding it) to any other call,
or calling a method of its owner clears the mark: those may put the elements back, and
silence beats a false report. A loop whose body stores into ``C`` leaves no mark for it.
Metadata (``len(C)``, ``C[i].shape``) is no use."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from mypy.nodes import (
    ARG_POS,
    AssignmentStmt,
    CallExpr,
    DelStmt,
    DictionaryComprehension,
    Expression,
    GeneratorExpr,
    IndexExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    RefExpr,
    SetComprehension,
    StarExpr,
    TupleExpr,
)
from mypy.types import CallableType, Instance, TupleType, Type, UnionType, get_proper_type

from .facts import Fact, map_actuals
from .names import HANDLES
from .paths import display_path, path_chain, path_extends
from .state import OWN, Atom, Atoms, State
from .syntax import FORMATTERS, bound_and_declared, child_nodes

#: The suffix of a container's mark: ``hosts[$*]`` (no index expression spells ``*``).
MARK: Final = "[$*]"
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


def mark_of(container: str) -> str:
    return container + MARK


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
    if isinstance(seq, CallExpr) and all(k == ARG_POS for k in seq.arg_kinds):
        callee = seq.callee
        if isinstance(callee, RefExpr) and callee.fullname in VIEWS:
            name = callee.fullname
            if name == "builtins.zip" and items is not None and len(items) == len(seq.args):
                for t, a in zip(items, seq.args, strict=True):
                    _pairs(t, a, out, depth + 1)
            elif name == "builtins.enumerate" and items is not None and len(items) == 2:
                if seq.args:
                    _pairs(items[1], seq.args[0], out, depth + 1)
            elif name in _SAME_ELEMENTS and seq.args:
                _pairs(target, seq.args[0], out, depth + 1)
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

    __slots__ = ("first", "last", "moved", "pairs", "partial", "stmt", "via")

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


class Elements:
    """The container-element part of one ``flow.Analysis`` (one run over one scope)."""

    __slots__ = (
        "_rebound",
        "_stores",
        "active",
        "compound_keys",
        "discarded",
        "discarded_loops",
        "facts",
        "holders",
        "how",
        "keyed",
        "moved_in",
        "targets",
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
        # per-run caches of syntax (a run never sees a node change)
        #: loop body id -> ``stores(body)``: the scope's (its body's names and callees
        #: do not change while mypy checks it; every analysis of the scope shares it)
        self._stores: dict[int, frozenset[str]] = stores if stores is not None else {}
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

    def iteration_end(self, le: LoopElements, states: Iterable[State | None]) -> None:
        """An iteration of ``le`` ends in each of ``states``: a loop variable moved by a
        call of this loop moved an element of its container."""
        for name, container, _keyed in le.pairs:
            for st in states:
                if st is None:
                    continue
                new = {a[1] for a in st.get(name) if a[0] == "M" and self._inside(le, a[1])}
                if new:
                    le.moved.setdefault(container, set()).update(new)
                    le.via.setdefault(container, f'through the loop variable "{name}"')
                else:
                    le.partial.add(container)

    def lost(self, key: str, atoms: Atoms, le: LoopElements | None) -> None:
        """``key`` (an element ``C[$i]``) stops being tracked because a name in its index
        is rebound inside the loop ``le``: its moves become the container's."""
        if le is None:
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
        if not le.moved and not self.active:
            return
        stores = self.stores(body) if body is not None else None
        for st in states:
            if st is None:
                continue
            if stores and self.active:
                for key in [k for k in st.vals if k.endswith(MARK)]:
                    if _touched(key[: -len(MARK)], stores):
                        del st.vals[key]
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
            lvs: list[Expression] = []
            if isinstance(n, AssignmentStmt):
                lvs = list(n.lvalues)
            elif isinstance(n, OperatorAssignmentStmt):
                lvs = [n.lvalue]
            elif isinstance(n, DelStmt):
                lvs = [n.expr]
            while lvs:
                lv = lvs.pop()
                if isinstance(lv, (TupleExpr, ListExpr)):
                    lvs.extend(lv.items)
                elif isinstance(lv, StarExpr):
                    lvs.append(lv.expr)
                else:
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

    # -- reads and stores --------------------------------------------------------------
    def element(self, container: str, atoms: Atoms | None, st: State) -> Atoms | None:
        """What a read of an element of ``container`` may hold: its own atoms and the
        container's mark."""
        mark = st.vals.get(mark_of(container))
        if mark is None:
            return atoms
        return mark if atoms is None else atoms | mark

    def store(self, container: Expression, st: State) -> None:
        """``C[k] = ...`` (or ``del C[k]``, ``C[:] = ...``): the elements may be back."""
        if not self.active:
            return
        ch = path_chain(container)
        if ch is not None:
            st.vals.pop(mark_of(ch[-1][0]), None)

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
        marks = [k for k in st.vals if k.endswith(MARK)]
        if not marks:
            return
        callee = e.callee
        name = callee.fullname if isinstance(callee, RefExpr) else ""
        if name in VIEWS or name in FORMATTERS:
            return
        recv = path_chain(callee.expr) if isinstance(callee, MemberExpr) else None
        for key in marks:
            container = key[: -len(MARK)]
            if recv is not None:
                r = recv[-1][0]
                if r == container and isinstance(callee, MemberExpr):
                    if callee.name not in READ_METHODS:
                        del st.vals[key]
                    continue
                if path_extends(container, r):
                    del st.vals[key]  # a method of the owner may put them back
                    continue
            for idx, a in enumerate(e.args):
                ch = path_chain(a)
                if ch is None:
                    continue
                p = ch[-1][0]
                if p == container and self._uses(e, idx, fact, name):
                    report(a, container, st.vals[key], callee_name(e))
                elif p == container or path_extends(container, p):
                    st.vals.pop(key, None)
                    break

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

    def holder_of(self, fid: int, held_in: str | None) -> str | None:
        if fid in self.holders:
            return self.holders[fid]
        return container_of(held_in) if held_in else None


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
