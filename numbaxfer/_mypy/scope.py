"""Per-scope bookkeeping: one function body (or module top level) while mypy checks it."""

from __future__ import annotations

from typing import Protocol

from mypy.nodes import (
    CallExpr,
    Expression,
    FuncItem,
    MemberExpr,
    MypyFile,
    Node,
    Statement,
    TypeInfo,
    Var,
)

from .facts import Fact, InferInfo, predict_fact
from .flags import NO_FLAGS, tracked_flags
from .paths import position_key, root_name
from .state import Message, PosKey, State
from .syntax import declared_shared, free_reads, nested_functions, shared_writes


class ObjectModel(Protocol):
    """What the methods of classes do to the attributes of ``self`` (``classes.py``);
    ``an`` is the ``flow.Analysis`` running (typed loosely: the engine sits above)."""

    def enter(self, an: object, st: State) -> None:
        """Put into ``st`` what a method's attributes may hold at its entry."""

    def call(self, an: object, call: CallExpr, st: State) -> None:
        """Apply the effects of ``obj.method()`` on ``obj``'s paths to ``st``."""

    def member(self, an: object, e: MemberExpr, st: State) -> None:
        """Apply the effects of reading ``obj.attr`` (a property's getter) to ``st``."""

    def run_method(
        self, an: object, site: Expression, recv: Expression, info: TypeInfo, name: str, st: State
    ) -> None:
        """Apply what the method ``name`` of ``info`` does to the object at the path
        ``recv`` to ``st``, as run at ``site`` (``__enter__``/``__exit__`` of a with)."""

    def module(self, name: str) -> MypyFile | None:
        """The module ``name`` of the build (None: not one of its modules)."""

    def bound(self, an: object, name: str, call: CallExpr, st: State) -> None:
        """``name = call(...)`` was just bound in ``st``: what the result is (an input
        of the call returned, a field of it left moved)."""


class Scope:
    """One function body (or module top level) while mypy checks it."""

    __slots__ = (
        "analysis",
        "attempted",
        "binder",
        "body",
        "confirmed",
        "facts",
        "flag_tests",
        "flags",
        "local_funcs",
        "local_inputs",
        "loop_stores",
        "nested_reads",
        "node",
        "objects",
        "origin_facts",
        "pending",
        "predicted",
        "reported",
        "shared",
        "spent",
        "untyped",
        "writes",
    )

    def __init__(self, binder: object, node: Node, body: list[Statement]) -> None:
        self.binder = binder
        self.node = node
        self.body = body
        self.facts: list[Fact] = []
        self.confirmed: dict[PosKey, Fact] = {}
        self.predicted: dict[PosKey, Fact | None] = {}
        self.reported: set[tuple[object, ...]] = set()
        #: message key -> the wording it was first tried with (``plugin._report_to``)
        self.attempted: dict[tuple[object, ...], str] = {}
        self.pending: list[Message] = []
        #: The last ``flow.Analysis`` of this scope (the engine sits above this module).
        self.analysis: object = None
        self.spent = 0.0
        #: The model of methods' effects on objects (None: not followed).
        self.objects: ObjectModel | None = None
        #: Facts standing for a move made inside a method, by (class, method, path).
        self.origin_facts: dict[tuple[str, ...], Fact] = {}
        #: What this scope's own functions do to their inputs (``inputs.py``, lazily).
        self.local_inputs: object = None
        #: Where a summary's analysis records the variables it met before mypy inferred
        #: their types (None: not recorded; a checked scope waits for nothing).
        self.untyped: list[Var] | None = None
        #: What each loop body may store into or hand on (``elements.Elements.stores``).
        self.loop_stores: dict[int, frozenset[str]] = {}
        funcs: dict[str, set[str]] = {}
        writes: dict[str, set[str]] = {}
        reads: set[str] = set()
        for name, fn in nested_functions(body):
            free = free_reads(fn)
            reads.update(root_name(r) for r in free)
            if name is not None:
                funcs.setdefault(name, set()).update(free)
                writes.setdefault(name, set()).update(shared_writes(fn))
        # A local function calling another one reads (and rebinds) what that one does.
        for _ in range(len(funcs)):
            changed = False
            for name, known in funcs.items():
                for other in [r for r in known if r in funcs and r != name]:
                    extra = funcs[other] - known
                    if extra:
                        known.update(extra)
                        changed = True
                    more = writes[other] - writes[name]
                    if more:
                        writes[name].update(more)
                        changed = True
            if not changed:
                break
        #: local function -> names of this scope it rebinds (nonlocal/global): a call of
        #: it rebinds them (``nonlocal host; host = up.wait()``). Where the rebinding is
        #: conditional in the callee this assumes it happened: silence, not a report.
        self.writes: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in writes.items() if v}
        #: Names this function declares global/nonlocal: a transfer bound to one is held
        #: by the other scope (completed there), so it is handed on, not leaked.
        self.shared = (
            frozenset(declared_shared(node.body)) if isinstance(node, FuncItem) else frozenset()
        )
        self.local_funcs: dict[str, frozenset[str]] = {
            k: frozenset(r for r in v if r not in funcs) for k, v in funcs.items()
        }
        #: Roots that nested scopes read: a transfer bound to one escapes.
        self.nested_reads = frozenset(reads)
        #: This function's flags (``flags.py``): name -> the constants it may hold.
        found = tracked_flags(node) if isinstance(node, FuncItem) else NO_FLAGS
        self.flags = found.domains
        #: flag -> the line of its last test
        self.flag_tests = found.last_test

    def add(self, fact: Fact) -> Fact:
        fact.id = len(self.facts)
        self.facts.append(fact)
        return fact

    def fact_for(self, call: CallExpr, infer: InferInfo) -> Fact | None:
        key = position_key(call)
        fact = self.confirmed.get(key)
        if fact is not None:
            return fact
        if key in self.predicted:
            return self.predicted[key]
        pred = predict_fact(call, infer, self.untyped)
        if isinstance(pred, str):
            return None  # not known yet: try again in the next analysis
        self.predicted[key] = (
            self.add(pred) if pred is not None and (pred.relevant() or pred.noreturn) else None
        )
        return self.predicted[key]


class SummaryScope(Scope):
    """A body analysed for a summary (of a method, or of a function's effects on its
    inputs): every fact is predicted from declared signatures; ``unknown`` records that
    one could not be (a type not inferred yet), so the summary is incomplete, and
    ``untyped`` (the registry's list, shared by every summary built meanwhile) gets the
    variables whose types were missing: the summary is worth rebuilding once mypy has
    inferred one of them."""

    __slots__ = ("seeds", "unknown")

    def __init__(self, fn: FuncItem, untyped: list[Var] | None = None) -> None:
        super().__init__(None, fn, fn.body.body)
        self.unknown = False
        self.untyped = untyped
        #: local name -> (attribute, the attribute its transfer may be pending in)
        #: pairs: where the name is bound from a call, the attribute starts moved by a
        #: sentinel whose transfer the other holds (``inputs.py``, returned objects)
        self.seeds: dict[str, list[tuple[str, str]]] = {}

    def fact_for(self, call: CallExpr, infer: InferInfo) -> Fact | None:
        key = position_key(call)
        fact = super().fact_for(call, infer)
        if fact is None and key not in self.predicted and key not in self.confirmed:
            self.unknown = True
        return fact
