"""The data-flow engine: a forward analysis of one scope over mypy's syntax tree
(branches, loops to a fixed point, try/except/finally, with, match, early exits,
comprehensions, aliases, local functions). It records *events* (a use of a moved or
expired path, a second completion, a dropped or leaked transfer); the rules in
``rules/`` turn them into messages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Final

from mypy.nodes import (
    ARG_POS,
    GDEF,
    AssertStmt,
    AssignmentExpr,
    AssignmentStmt,
    AwaitExpr,
    Block,
    BreakStmt,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    ConditionalExpr,
    Context,
    ContinueStmt,
    Decorator,
    DelStmt,
    DictExpr,
    DictionaryComprehension,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    FuncItem,
    GeneratorExpr,
    IfStmt,
    Import,
    ImportFrom,
    IndexExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MatchStmt,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    RaiseStmt,
    RefExpr,
    ReturnStmt,
    SetComprehension,
    SetExpr,
    StarExpr,
    Statement,
    SuperExpr,
    TempNode,
    TryStmt,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
    WhileStmt,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)
from mypy.patterns import (
    AsPattern,
    ClassPattern,
    MappingPattern,
    Pattern,
    ValuePattern,
)
from mypy.types import CallableType, Instance, NoneType, TupleType, TypeVarType, get_proper_type

from .blocks import (
    BORROW_BREAKERS,
    CONTAINER_ADDS,
    ELEMENT_ADDS,
    awaited_through,
    borrowed_owner,
    entered_on_stack,
    escaping_parts,
    exit_stack,
    generated_transfers,
    kept_handles,
    lent_at_every_yield,
    partial_call,
    partial_of,
    pins_in_place,
    property_field,
    swallows,
    yield_borrows,
)
from .elements import (
    Elements,
    LoopElements,
    container_of,
    element_attr_of,
    mark_of,
    user_call,
)
from .facts import (
    WAIT_SIGNATURE,
    Fact,
    _receiver_info,
    element_class,
    first_attr,
    is_lent_handle,
    is_transfer,
    result_info,
    sends_handles,
    static_type,
)
from .fields import constructor_fields
from .flags import TOP, TOP_SET, comparison, pattern_constants, truth
from .flags import values as flag_values
from .guards import Guards
from .held import HELD, Held
from .held import clear as clear_held
from .iterations import last_truth, loop_bound
from .memo import by_node
from .names import (
    CLOSED,
    CLOSURE_READ,
    CONTEXTMANAGER,
    ISSUED,
    MAX_ALIASES,
    MAX_LOOP_ITERATIONS,
    METADATA,
    READS,
    STREAM,
    STREAM_OPS,
    TRANSFER_NEUTRAL,
    YIELDED,
    in_library,
)
from .paths import (
    depends_on_name,
    display_path,
    path_chain,
    path_extends,
    path_prefixes,
    position_key,
    root_name,
)
from .raising import (
    catches_stream_closed,
    installs_signal_handlers,
    library_manager,
    program_exception,
    raises_only_library,
)
from .scope import Scope
from .state import (
    EXC_PENDING,
    OWN,
    OWN_SET,
    STORED,
    TRANSFER_KINDS,
    Atoms,
    Chain,
    PosKey,
    Split,
    State,
    completed_before,
    join_states,
    joined_view,
)
from .syntax import (
    LEAVES,
    binds_once,
    bound_and_declared,
    cannot_raise,
    catches_all,
    child_nodes,
    free_read_sites,
    free_reads,
    is_formatting,
    keeps_transfers_of,
    literal_truth,
    nested_functions,
    never_exhausts,
    none_test_of,
    reads_before_take_back,
    recovers,
    same_block,
    target_names,
    wants_repr,
)


def _handed_on(atoms: Atoms) -> Atoms:
    """``atoms`` with their pending transfers (and those stored here) handed on."""
    return frozenset(
        ("E", a[1], 0) if a[0] == "P" or (a[0] == "E" and a[2] == STORED) else a for a in atoms
    )


#: Methods of a handle that a lend or write() block of it refuses (some of them).
BORROW_METHODS: Final = BORROW_BREAKERS["write"] | BORROW_BREAKERS["lend"]
#: Names that are constants, never an object a path could alias.
CONSTANTS: Final = frozenset({"builtins.None", "builtins.True", "builtins.False"})


@by_node
def passed_names(s: Statement) -> frozenset[str]:
    """The paths statement ``s`` passes to calls that may run the program's code
    (``finish(up)``): such a call may complete a transfer before it raises."""
    out: set[str] = set()
    todo: list[Node] = [s]
    while todo:
        n = todo.pop()
        if isinstance(n, (FuncItem, LambdaExpr, ClassDef)):
            continue
        if isinstance(n, CallExpr) and user_call(n):
            for a in n.args:
                chain = path_chain(a)
                if chain is not None:
                    out.add(chain[-1][0])
        todo.extend(child_nodes(n))
    return frozenset(out)


def _taken_element(e: Expression) -> Chain | None:
    """``C.pop(k)`` / ``C.get(k)``: the chain of ``C[k]``, the element it hands out
    (an owner lent as ``with C[k].lend()`` is the same object)."""
    if not (isinstance(e, CallExpr) and isinstance(e.callee, MemberExpr)):
        return None
    if e.callee.name not in ("pop", "get") or len(e.args) != 1 or e.arg_kinds != [ARG_POS]:
        return None
    return path_chain(IndexExpr(e.callee.expr, e.args[0]))


# --------------------------------------------------------------------------------------
# The data-flow analysis of one scope
# --------------------------------------------------------------------------------------


#: The values of a loop's last-iteration flag (``_Ctx.last``).
_LAST: Final = frozenset({1})
_NOT_LAST: Final = frozenset({0})


def _apart(st: State | None, flag: str, exits: list[State] | None) -> State | None:
    """The paths of ``st`` that go on to the loop's next iteration, without the flag
    that tells the last iteration apart. Those of the last iteration go to ``exits``
    only, and those that did not meet the test (no flag) to both; ``exits`` None: keep
    them all."""
    if st is None:
        return None
    keep: list[State] = []
    for p in st.live_parts() or [st]:
        q = p.copy()
        seen = q.flags.get(flag)
        q.with_flag(flag, None)
        if exits is None:
            keep.append(q)
            continue
        if seen != _NOT_LAST:
            exits.append(q)
        if seen != _LAST:
            keep.append(q)
    return join_states(*keep)


class _Ctx:
    __slots__ = (
        "borrows",
        "breaks",
        "catches_closed",
        "closes",
        "conts",
        "elements",
        "exc",
        "expires",
        "finally_body",
        "kind",
        "last",
        "lib_exc",
        "managers",
        "pins",
        "program_only",
        "stacks",
        "stmt",
    )

    def __init__(self, kind: str) -> None:
        self.kind = kind  # "loop", "try", "with", "finally"
        #: a counted loop (``iterations.py``): its index, the text of its bound, and the
        #: flag that keeps the paths of its last iteration apart
        self.last: tuple[str, str, str] | None = None
        self.breaks: list[State] = []
        self.conts: list[State] = []
        self.exc: State | None = None
        #: a "try" whose handlers all catch classes only the program raises
        #: (``raising.py``): the states before statements that raise only numbaxfer's
        #: (and the builtins') errors, which pass its handlers by
        self.program_only = False
        #: a "try" (or a swallowing ``with``) that catches ``nx.StreamClosedError``
        self.catches_closed = False
        self.lib_exc: State | None = None
        self.expires: list[tuple[str, int]] = []
        self.finally_body: Block | None = None
        #: ``nx.pinned``/``nx.mapped`` blocks that end with this one (``with
        #: nx.pinned(a) as h``, or ``h = stack.enter_context(nx.pinned(a))`` on its exit
        #: stack): (the with statement, the handles bound, the line of the pin, those
        #: of them still holding the block's handle when it ends (``blocks.kept_handles``),
        #: how the block reads in messages ("" for the pinned block itself))
        self.pins: list[tuple[WithStmt, tuple[str, ...], int, tuple[str, ...], str]] = []
        #: the with statement of a "with" context
        self.stmt: WithStmt | None = None
        #: ``with h.lend()`` / ``with h.write()``: (h's path, "lend" or "write", line,
        #: the statement) while the block runs (rule 3: the owner is borrowed)
        #: (the statement is None where its body was checked for rebinding already)
        self.borrows: list[tuple[str, str, int, WithStmt | None]] = []
        #: ``with ExitStack() as stack``: stack name -> (how the block reads in
        #: messages, the names its body binds); a lend entered on it ends with the block
        self.stacks: dict[str, tuple[str, frozenset[str]]] = {}
        #: streams closed when the block ends (``stack.callback(s.close)``), with the call
        self.closes: list[tuple[str, CallExpr]] = []
        #: user classes managing the block (``with stage:``, ``with Session(s) as x:``):
        #: (the item, the path of the object, its class); their ``__exit__`` runs at its end
        self.managers: list[tuple[Expression, Expression, TypeInfo]] = []
        #: a loop or comprehension: what it moves of containers' elements (elements.py)
        self.elements: LoopElements | None = None


class Event:
    """Something a rule may report: a use of a moved or expired path (``use``), a second
    completion (``twice``), a transfer discarded, dropped or leaked (``discard``,
    ``drop``, ``leak``). ``atoms`` are what the path may hold there."""

    __slots__ = ("atoms", "extra", "kind", "node", "path")

    def __init__(self, kind: str, node: Context, path: str, atoms: Atoms, extra: str) -> None:
        self.kind = kind
        self.node = node
        self.path = path
        self.atoms = atoms
        self.extra = extra

    def dedupe(self) -> tuple[object, ...]:
        """The key under which a message for this event is reported once."""
        return (self.kind, self.node.line, self.node.column, self.path, self.extra)


#: The callee of the fact standing for a lend made by the caller (a Lent parameter).
LENT_PARAMETER: Final = "<lent parameter>"


def paths_of(*states: State | None) -> list[State | None]:
    """``states`` with each disjunction (``state.Split``) replaced by its parts, for
    code that looks at each state on its own."""
    out: list[State | None] = []
    for st in states:
        parts = st.live_parts() if st is not None else None
        if parts is None:
            out.append(st)
        else:
            out.extend(parts)
    return out


def _module_global(e: Expression) -> bool:
    """Is ``e`` a name of a module-level variable (it outlives any call)?"""
    return isinstance(e, NameExpr) and e.kind == GDEF and isinstance(e.node, Var)


def _copied(rv: Expression) -> bool:
    """Is the right-hand side only names and attribute paths (or a display of them)?
    Index paths are not: an element of a container whose elements were moved is known
    by its container (``elements.py``), not by its own path."""
    items = rv.items if isinstance(rv, (TupleExpr, ListExpr)) else [rv]
    return bool(items) and all(
        isinstance(i, NameExpr | MemberExpr) and path_chain(i) is not None for i in items
    )


class Analysis:
    def __init__(self, scope: Scope, entry: State | None = None) -> None:
        self.scope = scope
        #: The state at the scope's entry (a method's view of its ``self``, see
        #: ``classes.py``); None: everything usable, or what ``scope.objects`` says.
        self.entry = entry
        #: The join of the states at the scope's exits (after ``run``).
        self.final: State | None = None
        #: A method call whose receiver's class was not inferred yet (``classes.py``).
        self.unresolved = False
        self.events: dict[tuple[str, int, str], Event] = {}
        #: while one part of a disjunction runs (``each``): the events it raised,
        #: and the statements it reached (by id)
        self.raised: set[tuple[str, int, str]] | None = None
        self.visited: set[int] | None = None
        #: event key -> the statement (id) that raised it first; the one running now
        self.event_stmt: dict[tuple[str, int, str], int] = {}
        self.current = 0
        self.sites = 0
        self.stack: list[_Ctx] = []
        self.n_try = 0
        self.exits: list[State] = []
        #: producer fact id -> (bound name, the name node)
        self.binds: dict[int, tuple[str, NameExpr]] = {}
        #: producer fact id -> the attribute or index path its transfer was stored in
        self.held_in: dict[int, str] = {}
        #: lend fact id -> (lent name, owner display)
        self.lends: dict[int, tuple[str, str]] = {}
        #: move fact id -> paths it moved
        self.moved: dict[int, list[str]] = {}
        #: call position -> the effects (a fact signature) this analysis gave the call
        self.treated: dict[PosKey, tuple[object, ...]] = {}
        #: name -> class of the value last assigned from a call (for predictions)
        self.inferred: dict[str, TypeInfo] = {}
        #: container name -> the class of what ``name.append(f(...))`` adds (its
        #: elements' class while mypy's type of ``name = []`` is still partial)
        self.element_classes: dict[str, TypeInfo] = {}
        #: every path rebound on some path (summaries: what a method restores)
        self.rebound: set[str] = set()
        #: rebound path -> the position of its last rebinding seen (classes.py: a ring's
        #: element taken back after it was read)
        self.rebound_last: dict[str, tuple[int, int]] = {}
        #: sentinels (classes.py) whose reads are kept in the state (``<path>.<READS>``)
        #: so that a completion of the same sentinel later on the path finds them ...
        self.read_marks: frozenset[int] = frozenset()
        self.read_nodes: list[Context] = []
        #: ... sentinel -> the reads made before its transfer was completed on the path
        self.early_reads: dict[int, list[Context]] = {}
        #: the ``close()`` calls of streams held in attributes (``on_stream``)
        self.close_nodes: list[CallExpr] = []
        #: close_nodes index -> the function whose call closed the stream there
        self.close_labels: dict[int, str] = {}
        #: paths copied to another name (``t = job.upload``) and paths whose
        #: ``completed`` was tested, on some path (``closed_before``)
        self.aliased: set[str] = set()
        self.completion_tested: set[str] = set()
        #: paths a ``wait()`` (or ``await``) completed here, on some path (classes.py)
        self.completed_keys: set[str] = set()
        #: has some path stored a transfer into an attribute (``STORED``)?
        self.stored_any = False
        #: ... transfers so stored that some path then handed on -> where: the lines, and
        #: the innermost loops (the ``id`` of their statement, 0 for none)
        self.stored_handed: dict[int, set[tuple[int, int]]] = {}
        #: drop events of such transfers -> (line, innermost loop) of the drop
        self.stored_drops: dict[int, tuple[int, int]] = {}
        #: every transfer (fact id) some wait() or await completed on some path
        self.completed: set[int] = set()
        #: variables without a type yet that ``raising.py`` met (``known_value``): the
        #: analysis is run again once mypy has inferred one of them (``plugin.py``)
        self.untyped_met: list[Var] = []
        #: every attribute/index path this analysis has put into a state
        self.compound_keys: set[str] = set()
        #: roots read by lambdas inside expressions: a transfer held there escapes
        self.lambda_reads: set[str] = set()
        self._own_variables: frozenset[str] | None = None
        self.lambdas_seen: set[int] = set()
        #: transfers that may stop being held by any variable while their buffer stays
        #: moved (handed on or pending, then the variable rebound; or completed into
        #: another name): ``X is None`` proves nothing about their buffers
        self.unpaired: set[int] = set()
        #: the wait()/await being assigned (either arm of ``a if c else b``), and the
        #: path it is assigned to
        #: the take-backs the assignment being analysed makes: (its wait() calls or
        #: awaits, the path each stores into)
        self.wait_target: list[tuple[tuple[Expression, ...], str]] | None = None
        #: ``x = t.wait() if c else x``: the arm that is the target itself (by id), and
        #: what it holds on its side of the test once evaluated (see ``value_info``)
        self.kept_arm: tuple[int, str] | None = None
        self.kept_atoms: Atoms | None = None
        #: (with statement, enter_context call) ids -> the pinned handles it keeps
        self._kept_pins: dict[tuple[int, int], tuple[str, ...]] = {}
        #: lend fact id -> names the lend block binds (a holder made there dies with it)
        self.lend_bound: dict[int, frozenset[str]] = {}
        #: lend fact id -> how its block reads in messages (``with ... .lend()``)
        self.lend_blocks: dict[int, str] = {}
        #: name -> the ``functools.partial(f, *bound)`` it holds, as the call ``f(*bound)``
        self.partials: dict[str, CallExpr] = {}
        #: ``threading.Thread(target=f, args=...)`` (by id) -> the call ``f(...)`` it
        #: runs from its ``start()``; and the paths such threads were bound to
        self.threads: dict[int, CallExpr] = {}
        self.thread_paths: dict[str, CallExpr] = {}
        #: name -> the call of a generator yielding transfers it is bound to
        self.generators: dict[str, CallExpr] = {}
        #: ``g = obj.frames()``, a generator that yields inside ``with self.x.lend()``:
        #: name -> the owners it keeps borrowed while suspended (``lending_generator``)
        self.lending_gens: dict[str, list[tuple[str, str, int]]] = {}
        #: ``next(g)`` of one: (owner, "lend"/"write", the with's line, the lines from
        #: the call to the end of the ``for`` over ``g`` that exhausts it, or the scope)
        self.suspended: list[tuple[str, str, int, int, int]] = []
        #: while leaving by ``return``: the transfers its value hands on (still pending)
        self.returning: set[int] = set()
        #: the last statement of a ``with pytest.raises(...)`` body: it raises (or the
        #: test fails), so a transfer it would return is never discarded
        self.raiser: Statement | None = None
        #: path -> (the function that stored a parameter's object there, line of the
        #: call, what it stored): ``w.attach(ls)`` stored ``ls`` in ``w.stream``
        #: (``inputs.py``; for messages)
        self.stored_by: dict[str, tuple[str, int, Atoms]] = {}
        #: elements of containers moved in loops (``for h in hosts: s.upload(h, ...)``)
        self.elems = Elements(scope.facts, self.compound_keys, scope.loop_stores)
        #: transfers added to containers, or chained, inside pinned blocks (held.py)
        self.held = Held()
        #: receivers whose class mypy's types decided (fixed while the analysis runs)
        self._receivers: dict[int, tuple[Expression, TypeInfo | None]] = {}

    def receiver(self, e: Expression) -> TypeInfo | str | None:
        """The class of the receiver ``e`` (``facts._receiver_info``; a str: not known
        yet). Where mypy's type of ``e`` decides it, the answer is kept for the rest of
        this analysis: mypy infers nothing while it runs."""
        hit = self._receivers.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        t = static_type(e)
        if t is None:
            return _receiver_info(e, self.infer, self.scope.untyped)
        p = get_proper_type(t)
        if isinstance(p, TupleType):  # a NamedTuple
            p = p.partial_fallback
        info = p.type if isinstance(p, Instance) else None
        self._receivers[id(e)] = (e, info)
        return info

    # -- driver ----------------------------------------------------------------------
    def run(self) -> None:
        start = self.entry.copy() if self.entry is not None else State()
        if self.entry is None and self.scope.objects is not None:
            self.scope.objects.enter(self, start)
        out = self.block(self.scope.body, start)
        if out is not None:
            self.exits.append(out)
        final = join_states(*self.exits)
        self.final = final
        if final is None:
            return
        for key, atoms in final.vals.items():
            for a in sorted(atoms):
                if a[0] == "P" and a[1] in self.binds:
                    node = self.binds[a[1]][1]
                    self.event("leak", node, key, atoms, str(a[1]))

    def event(self, kind: str, node: Context, path: str, atoms: Atoms, extra: str = "") -> None:
        key = (kind, id(node), path + "\0" + extra)
        if self.raised is not None:
            self.raised.add(key)
            self.event_stmt.setdefault(key, self.current)
        ev = self.events.get(key)
        if ev is None:
            self.events[key] = Event(kind, node, path, atoms, extra)
        else:
            ev.atoms = ev.atoms | atoms

    # -- statements ------------------------------------------------------------------
    def block(self, stmts: Sequence[Statement], st: State | None) -> State | None:
        last = len(stmts) - 1
        for i, s in enumerate(stmts):
            if st is None:
                return None
            st = self.stmt(s, st)
            if (
                st is not None
                and self.n_try
                and (
                    i == last
                    or not (cannot_raise(stmts[i + 1]) or self.takes_back(stmts[i + 1], st))
                )
            ):
                if i < last:
                    self.deliver_before(stmts[i + 1], st)
                else:
                    self.deliver_exc(st)
        return st

    def takes_back(self, s: Statement, st: State) -> bool:
        """Is ``s`` a plain take-back, ``host = t.wait()`` (or ``t.wait()``, ``host =
        await t``), of a transfer held at a path? Only the device (or an interrupt) makes
        it fail, and then the transfer is pending again: a handler is not shown the
        state before it (``try: ... host = down.wait() finally: host.free()`` is the
        ordinary way to write it, not a use on the path of a failing wait)."""
        if isinstance(s, AssignmentStmt) and len(s.lvalues) == 1 and s.type is None:
            if not isinstance(s.lvalues[0], (NameExpr, MemberExpr)):
                return False
            e: Expression = s.rvalue
        elif isinstance(s, ExpressionStmt):
            e = s.expr
        else:
            return False
        if isinstance(e, AwaitExpr):
            target: Expression = e.expr
        elif (
            isinstance(e, CallExpr)
            and isinstance(e.callee, MemberExpr)
            and e.callee.name == "wait"
            and not e.args
        ):
            target = e.callee.expr
        else:
            return False
        chain = path_chain(target)
        if chain is None:
            return False
        return any(a[0] in "PE" for a in joined_view(st).get(chain[-1][0]))

    def deliver_before(self, s: Statement, st: State) -> None:
        """The state before ``s`` in a try block reaches the handlers (``s`` may
        raise): past those of the program's classes where ``s`` raises only the
        library's errors; and a transfer completed before a statement that only
        numbaxfer or numpy code can make fail (a launch, a download) is not reported
        as completed twice on that failure's path: a CUDA failure right after a
        ``wait()`` is no path to report a second ``wait()`` in ``finally`` on."""
        view = joined_view(st)  # (reading ``st`` itself would join its parts for good)
        library = self.library_raises(s, view)
        quiet = library or (
            any(a[0] == "W" for v in view.vals.values() for a in v)
            and raises_only_library(s, partial(self.known_value, st=view))
        )
        pending = any(a[0] == "P" for v in view.vals.values() for a in v)
        handed = passed_names(s) if pending else frozenset()
        self.deliver_exc(st, library, forget_completed=quiet, handed=handed)

    def try_body(self, b: Block, st: State) -> State | None:
        """A try block's own statements. An exception raised BY a statement leaves the
        state before it (a refused numbaxfer call moves nothing), which is delivered to
        the handlers before each statement; the state after the last statement reaches
        them only through a later statement, and there is none."""
        if b.is_unreachable:
            return None
        cur: State | None = st
        for i, stmt in enumerate(b.body):
            if cur is None:
                return None
            cur = self.stmt(stmt, cur)
            if (
                cur is not None
                and i + 1 < len(b.body)
                and not cannot_raise(b.body[i + 1])
                and not self.takes_back(b.body[i + 1], cur)
            ):
                self.deliver_before(b.body[i + 1], cur)
        return cur

    def known_value(self, e: Expression, st: State) -> bool:
        """Is ``e`` a numbaxfer handle or transfer as far as the state shows? (For
        ``raising.py``: a variable mypy has not typed yet is recorded.)"""
        if self.elems.handle_value(e, st):
            return True
        if (
            isinstance(e, NameExpr)
            and isinstance(e.node, Var)
            and e.node.type is None
            and all(v is not e.node for v in self.untyped_met)
        ):
            self.untyped_met.append(e.node)
        return False

    def retyped(self) -> bool:
        """Has mypy inferred the type of a variable ``raising.py`` met without one?"""
        return any(v.type is not None for v in self.untyped_met)

    def signal_handlers(self, types: Sequence[Expression | None]) -> bool:
        """May a signal handler raise one of ``types`` (program classes) anywhere: does
        this module, or one defining one of them, import ``signal``?"""
        objects = self.scope.objects
        if objects is None:
            return True  # (not known: as if it did)
        refs = [i for t in types for i in (t.items if isinstance(t, TupleExpr) else [t])]
        modules = {
            r.node.module_name
            for r in refs
            if isinstance(r, RefExpr) and isinstance(r.node, TypeInfo)
        }
        fn = self.scope.node
        name = fn.fullname if isinstance(fn, FuncItem) else ""
        while name and objects.module(name) is None:
            name = name.rpartition(".")[0]
        if name:
            modules.add(name)
        return any(installs_signal_handlers(objects.module(m)) for m in sorted(modules))

    def library_raises(self, s: Statement, st: State) -> bool:
        """Can ``s``, run from ``st``, raise only numbaxfer's and the builtins' errors?
        (Asked only inside a ``try`` whose handlers catch the program's classes.)"""
        idx = next(
            (i for i in range(len(self.stack) - 1, -1, -1) if self.stack[i].kind == "try"), -1
        )
        if idx < 0 or not self.stack[idx].program_only:
            return False
        known = partial(self.known_value, st=st)
        for ctx in self.stack[idx + 1 :]:
            if ctx.kind == "with" and not (
                ctx.stmt is not None and all(library_manager(e, known) for e in ctx.stmt.expr)
            ):
                return False  # its ``__exit__`` may turn the error into the program's
        return raises_only_library(s, known)

    def blk(self, b: Block | None, st: State | None) -> State | None:
        if b is None or st is None or b.is_unreachable:
            return None if b is not None and b.is_unreachable else st
        return self.block(b.body, st)

    def stmt(self, s: Statement, st: State) -> State | None:
        if type(st) is Split and st.live_parts() is not None:
            # paths told apart by their flags: each on its own
            return self.forget_flags(self.each(st, partial(self.stmt, s)), s)
        if self.visited is not None:  # inside ``each``: where reports are made
            self.visited.add(id(s))
            outer, self.current = self.current, id(s)
            try:
                out = self.plain_stmt(s, st)
            finally:
                self.current = outer
        elif HELD in st.vals or self.pinning():
            out = self.plain_stmt(s, st)
        else:
            out = self.stmt_(s, st)
        if type(out) is Split and out.live_parts() is not None:
            return self.forget_flags(out, s)
        return out

    def forget_flags(self, st: State | None, s: Statement) -> State | None:
        """After ``s``, outside loops: the flags no test reads any more (their last
        test is at or above ``s``'s last line) stop keeping paths apart."""
        parts = st.live_parts() if st is not None else None
        if parts is None or any(ctx.kind == "loop" for ctx in self.stack):
            return st
        end = s.end_line or s.line
        dead = [f for f, line in self.scope.flag_tests.items() if line <= end]
        if not dead:
            return st
        for p in parts:
            for f in dead:
                p.with_flag(f, None)
        return join_states(*parts)

    def plain_stmt(self, s: Statement, st: State) -> State | None:
        if HELD in st.vals:
            clear_held(st)  # code runs: what the last statement added may be completed
        if isinstance(s, (ExpressionStmt, AssignmentStmt)) and self.pinning():
            # ``pending.append(down)`` in an ``nx.pinned`` block (held.py)
            fids = self.held.adds(s, st, self.fact_of)
            out = self.stmt_(s, st)
            if fids is not None and out is not None:
                self.held.hold(fids, out)
            return out
        return self.stmt_(s, st)

    def each(self, st: State, step: Callable[[State], State | None]) -> State | None:
        """``step`` (which changes a plain state) on ``st``, or on each of its parts
        (the paths a flag keeps apart, ``state.Split``), then joined. A report that some
        parts make at a statement that the others reach without it holds on some paths
        only: it says "may" (an O atom joins its atoms). Statements run by ``step``
        itself count as reached by every part."""
        parts = st.live_parts()
        if parts is None:
            return step(st)
        outer = (self.raised, self.visited, self.current)
        self.sites += 1
        site = self.current = -self.sites  # what ``step`` raises outside statements
        raised: list[set[tuple[str, int, str]]] = []
        visited: list[set[int]] = []
        outs: list[State | None] = []
        for p in parts:
            self.raised, self.visited = set(), {site}
            outs.append(step(p))
            raised.append(self.raised)
            visited.append(self.visited)
        self.raised, self.visited, self.current = outer
        some = set().union(*raised)
        for key in some:
            at = self.event_stmt.get(key)
            if any(key not in r and at in v for r, v in zip(raised, visited, strict=True)):
                ev = self.events.get(key)
                if ev is not None:
                    ev.atoms = ev.atoms | OWN_SET
        if outer[0] is not None and outer[1] is not None:
            outer[0].update(some)
            outer[1].update(*visited)
        return join_states(*outs)

    def pinning(self) -> bool:
        return any(ctx.pins for ctx in self.stack)

    def stmt_(self, s: Statement, st: State) -> State | None:
        if isinstance(s, ExpressionStmt):
            e = s.expr
            if isinstance(e, CallExpr):
                fact = self.scope.fact_for(e, self.infer)
                if fact is not None and fact.producer and s is not self.raiser:
                    self.event("discard", e, "", frozenset({("D", fact.id, 0)}))
                self.elems.note_discard(e, st)  # ``up.wait()``: its result is lost
            if isinstance(e, YieldExpr) and e.expr is not None and sends_handles(self.scope.node):
                return self.yield_away(e, st)
            return self.ex(e, st)
        if isinstance(s, AssignmentStmt):
            return self.assign(s, st)
        if isinstance(s, IfStmt):
            return self.if_(s, st)
        if isinstance(s, ReturnStmt):
            if s.expr is not None:
                self.escapes(s.expr, st, "return", s.expr)
            before = {a[1] for v in st.vals.values() for a in v if a[0] == "P"}
            ret = self.ex(s.expr, st) if s.expr is not None else st
            if ret is not None:  # transfers the return hands on: unfinished as it leaves
                self.returning = {
                    a[1] for v in ret.vals.values() for a in v if a[0] == "E" and a[1] in before
                }
            out = self.through(ret, 0) if ret is not None else None
            self.returning = set()
            if out is not None:
                if s.expr is not None:
                    self.closures_returned(s, s.expr, out)
                self.exits.append(out)
            return None
        if isinstance(s, ForStmt):
            return self.for_(s, st)
        if isinstance(s, WithStmt):
            return self.with_(s, st)
        if isinstance(s, WhileStmt):
            return self.while_(s, st)
        if isinstance(s, TryStmt):
            return self.try_(s, st)
        if isinstance(s, OperatorAssignmentStmt):
            aug = self.ex(s.lvalue, st)
            aug = self.ex(s.rvalue, aug) if aug is not None else None
            return self.bind(s.lvalue, ("fresh", None), aug, s) if aug is not None else None
        if isinstance(s, DelStmt):
            return self.delete(s.expr, st)
        if isinstance(s, RaiseStmt):
            r: State | None = st
            for part in (s.expr, s.from_expr):
                if part is not None and r is not None:
                    r = self.ex(part, r)
            if r is not None:
                self.deliver_exc(r)
            return None
        if isinstance(s, (BreakStmt, ContinueStmt)):
            for i in range(len(self.stack) - 1, -1, -1):
                ctx = self.stack[i]
                if ctx.kind == "loop":
                    out = self.through(st, i + 1)
                    if out is not None:
                        (ctx.breaks if isinstance(s, BreakStmt) else ctx.conts).append(out)
                    break
            return None
        if isinstance(s, AssertStmt):
            r = self.ex(s.expr, st)
            if r is not None and literal_truth(s.expr) is False:
                if s.msg is not None:
                    r = self.ex(s.msg, r)
                if r is not None:
                    self.deliver_exc(r)
                return None
            return r
        if isinstance(s, MatchStmt):
            return self.match(s, st)
        if isinstance(s, Decorator):
            for d in s.decorators:
                r2 = self.ex(d, st)
                if r2 is None:
                    return None
                st = r2
            return self.rebind(s.name, st, s)
        if isinstance(s, (FuncDef, OverloadedFuncDef)):
            if isinstance(s, FuncDef):
                for a in s.arguments:
                    if a.initializer is not None:
                        r3 = self.ex(a.initializer, st)
                        if r3 is None:
                            return None
                        st = r3
            return self.rebind(s.name, st, s)
        if isinstance(s, ClassDef):
            for e in (*s.decorators, *s.base_type_exprs):
                r4 = self.ex(e, st)
                if r4 is None:
                    return None
                st = r4
            return self.rebind(s.name, st, s)
        if isinstance(s, (Import, ImportFrom)):
            names: set[str] = set()
            if isinstance(s, Import):
                names.update((alias or mod).split(".")[0] for mod, alias in s.ids)
            else:
                names.update(alias or name for name, alias in s.names)
            for nm in names:
                self.rebind(nm, st, s)
            return st
        if isinstance(s, Block):
            return self.blk(s, st)
        return st  # pass, global, nonlocal, import *, type aliases, ...

    def assign(self, s: AssignmentStmt, st: State) -> State | None:
        rv = s.rvalue
        if isinstance(rv, TempNode) and rv.no_rhs:
            return st
        self.wait_target = None
        if len(s.lvalues) == 1:
            lv0 = s.lvalues[0]
            # ``host = t.wait()``; ``self.host, self.t = self.t.wait(), None`` item-wise
            pairs: list[tuple[Expression, Expression]] = [(lv0, rv)]
            if (
                isinstance(lv0, TupleExpr)
                and isinstance(rv, TupleExpr)
                and len(lv0.items) == len(rv.items)
            ):
                pairs = list(zip(lv0.items, rv.items, strict=True))
            targets: list[tuple[tuple[Expression, ...], str]] = []
            for lv, v in pairs:
                arms = (v.if_expr, v.else_expr) if isinstance(v, ConditionalExpr) else (v,)
                waits = tuple(
                    x
                    for x in arms
                    if isinstance(x, AwaitExpr)
                    or (isinstance(x, CallExpr) and isinstance(x.callee, MemberExpr))
                )
                target = path_chain(lv) if waits else None
                if target is not None:
                    targets.append((waits, target[-1][0]))
            self.wait_target = targets or None
        for lv in s.lvalues:
            if isinstance(lv, (MemberExpr, IndexExpr)) or (
                isinstance(lv, NameExpr) and lv.name in self.scope.shared
            ):
                self.escapes(rv, st, "store", lv)
        self.kept_arm = self.kept_atoms = None
        if isinstance(rv, ConditionalExpr) and len(s.lvalues) == 1:
            target = path_chain(s.lvalues[0])
            for arm in (rv.if_expr, rv.else_expr):
                chain = path_chain(arm)
                if target is not None and chain is not None and chain[-1][0] == target[-1][0]:
                    self.kept_arm = (id(arm), target[-1][0])  # ``x = ... if c else x``
        r = self.copy(rv, st) if _copied(rv) else self.ex(rv, st)
        self.wait_target = None
        if r is None:
            self.kept_arm = self.kept_atoms = None
            return None
        info = self.value_info(rv, r)
        self.kept_arm = self.kept_atoms = None
        one = s.lvalues[0] if len(s.lvalues) == 1 else None  # ``x = ...``, not ``x = y = ...``
        name = one if isinstance(one, NameExpr) else None
        call = rv if isinstance(rv, CallExpr) else None
        if call is not None and name is not None:
            made = result_info(call, self.infer)
            if made is not None:
                self.inferred[name.name] = made
        for lv in s.lvalues:
            out = self.bind(lv, info, r, s)
            if out is None:
                return None
            r = out
        if self.elems.active and one is not None:
            self.elems.extract(one, rv, r)  # ``job = jobs.popleft()``
        if call is not None and one is not None:
            if name is not None:
                self.stack_lend(name.name, call, r)
            self.stack_pin(one, call)
            if name is not None:
                # ``slot = Slot(host=h)`` (a dataclass or NamedTuple): ``slot.host`` is ``h``.
                obj = name.name
                for field, arg in constructor_fields(call):
                    if isinstance(arg, NameExpr) and arg.name != obj:
                        self.alias_field(f"{obj}.{field}", arg.name, r)
                bound = partial_of(call)
                if bound is not None:
                    self.partials[obj] = bound
                if generated_transfers(call) is not None:  # ``gen = tiles(...)``
                    self.generators[obj] = call
                lends = self.lending_generator(call)
                if lends:
                    self.lending_gens[obj] = lends
                if self.scope.objects is not None:  # ``best = pick(a, b)``: an input back
                    self.scope.objects.bound(self, obj, call, r)
        if name is not None:
            obj = name.name
            if isinstance(rv, (ListExpr, TupleExpr)):
                # ``bufs = [host]``: ``bufs[0]`` is ``host`` (until either is rebound).
                for i, item in enumerate(rv.items):
                    if isinstance(item, StarExpr):
                        break
                    if isinstance(item, NameExpr) and item.name != obj:
                        self.alias_field(f"{obj}[{i}]", item.name, r)
            elif isinstance(rv, (ListComprehension, GeneratorExpr, DictionaryComprehension)):
                self.elems.note_holder(name, rv, self.fact_of)
            if obj in self.scope.flags:
                r = self.set_flag(r, obj, rv)
        if one is not None:
            self.note_members(one, rv, r)
            if self.threads and id(rv) in self.threads and (lc := path_chain(one)) is not None:
                self.thread_paths[lc[-1][0]] = self.threads[id(rv)]  # ``t = Thread(...)``
        return r

    def note_members(self, lv: Expression, rv: Expression, st: State) -> None:
        """``pending = [t]``, ``jobs = {"a": t}``, ``jobs[k] = t``: the container holds
        the transfer ``t`` names (``Elements.note_member``)."""
        holder = lv.base if isinstance(lv, IndexExpr) else lv
        items: list[Expression] = [rv] if isinstance(lv, IndexExpr) else []
        if isinstance(rv, (ListExpr, TupleExpr, SetExpr)) and not isinstance(lv, IndexExpr):
            items = [x for x in rv.items if not isinstance(x, StarExpr)]
        elif isinstance(rv, DictExpr) and not isinstance(lv, IndexExpr):
            items = [v for _, v in rv.items]
        for item in items:
            if isinstance(item, (NameExpr, MemberExpr)):
                self.elems.note_member(holder, item, st)

    def copy(self, rv: Expression, st: State) -> State:
        """``a = b``, ``a, b = b, a``, ``self.x = buf``: the names are bound to the same
        objects, whose memory nobody touches, so a moved (or expired) one is no use
        here; its state goes with it (``value_info``), and a later use of either name
        is one. Prefixes are read as ever (``x = obj.buf`` reads ``obj``), and a
        transfer copied to another name is handed on."""
        items = rv.items if isinstance(rv, (TupleExpr, ListExpr)) else [rv]
        for item in items:
            chain = path_chain(item)
            if chain is not None:
                self.read(chain, st, whole=False)
                if isinstance(item, MemberExpr) and self.scope.objects is not None:
                    self.scope.objects.member(self, item, st)  # a property's getter runs
        return st

    def fact_of(self, call: CallExpr) -> Fact | None:
        return self.scope.fact_for(call, self.infer)

    def alias_field(self, field: str, src: str, st: State) -> None:
        """The field path ``field`` holds the object at path ``src`` (both usable or
        moved together, until either is rebound)."""
        self.compound_keys.add(field)
        atoms = st.get(src)
        if atoms != OWN_SET:
            st.put(field, atoms)
        if len(st.alias) >= MAX_ALIASES:
            del st.alias[next(iter(st.alias))]
        st.alias.setdefault(src, {})[field] = True

    def infer(self, name: str) -> TypeInfo | None:
        return self.inferred.get(name)

    def infer_target(self, index: Expression, seq: Expression) -> None:
        """``for t in ups``: the class of ``t`` is that of ``ups``' elements, as mypy will
        infer it when it reaches the loop (its type of ``t`` is not there yet while an
        earlier call is checked). Predicting ``t.wait()`` then spares an analysis."""
        if not isinstance(index, NameExpr) or index.name in self.inferred:
            return
        info = element_class(seq)
        if info is None and isinstance(seq, NameExpr):
            info = self.element_classes.get(seq.name)
        if info is not None:
            self.inferred[index.name] = info

    def value_info(self, rv: Expression, st: State) -> tuple[str, object]:
        if isinstance(rv, CallExpr):
            fact = self.scope.fact_for(rv, self.infer)
            if fact is not None and fact.producer:
                return ("producer", fact)
            if fact is not None and fact.items:  # ``host, up = begin(...)``: each its own
                parts = dict(zip(fact.items, self.parts_of(fact), strict=True))
                return (
                    "tuple",
                    [
                        ("producer", parts[i]) if i in parts else ("fresh", None)
                        for i in range(fact.arity)
                    ],
                )
            return ("fresh", None)
        if isinstance(rv, (TupleExpr, ListExpr)) and not any(
            isinstance(i, StarExpr) for i in rv.items
        ):
            return ("tuple", [self.value_info(i, st) for i in rv.items])
        if isinstance(rv, ConditionalExpr):
            # `s.download(...) if want else None`: the transfer, or nothing
            for made, other in ((rv.if_expr, rv.else_expr), (rv.else_expr, rv.if_expr)):
                if isinstance(other, NameExpr) and other.fullname == "builtins.None":
                    info = self.value_info(made, st)
                    if info[0] == "producer":
                        return ("producer-or-none", info[1])
            kept, held = self.kept_arm, self.kept_atoms
            if kept is not None and held is not None and not any(a[0] in "PEWL" for a in held):
                # ``x = t.wait() if ready and t is not None else x``: a new value on one
                # side, x as it was on the other (moved where ``not ready``)
                other = rv.else_expr if id(rv.if_expr) == kept[0] else rv.if_expr
                if self.value_info(other, st)[0] == "fresh":
                    return ("value", held | OWN_SET)
            return ("fresh", None)
        if isinstance(rv, NameExpr) and rv.fullname in CONSTANTS:
            return ("fresh", None)  # ``snap = None``: no alias of a constant
        chain = path_chain(rv)
        if chain is not None:
            key = chain[-1][0]
            return ("copy", (key, st.get(key)))
        return ("fresh", None)

    def parts_of(self, fact: Fact) -> list[Fact]:
        """The transfers in the tuple a call returns (``Fact.items``), each a fact of its
        own, made once per call and confirmed with it."""
        if not fact.parts:
            for _ in fact.items:
                part = Fact(
                    CallExpr(NameExpr(fact.callee), [], [], []), fact.callee, fact.confirmed
                )
                part.line, part.end = fact.line, fact.end
                part.producer = True
                self.scope.add(part)
                fact.parts.append(part)
        return fact.parts

    def bind(self, lv: Expression, info: tuple[str, object], st: State, stmt: Node) -> State | None:
        if isinstance(lv, NameExpr):
            self.set_value(lv.name, lv, info, st, stmt, is_name=True)
            return st
        if isinstance(lv, (MemberExpr, IndexExpr)):
            if isinstance(lv, MemberExpr):
                r = self.ex(lv.expr, st)
                if r is not None and self.elems.attr_marks:
                    self.elems.attr_store(lv.name, r)  # ``x.host = ...``: x may be an element
            else:
                r = self.ex(lv.base, st)
                r = self.ex(lv.index, r) if r is not None else None
                if r is not None:
                    self.elems.store(lv.base, r)  # a store: the elements may be back
            if r is None:
                return None
            chain = path_chain(lv)
            if chain is not None:
                self.set_value(chain[-1][0], lv, info, r, stmt, is_name=False)
                if (
                    isinstance(lv, MemberExpr)
                    and any(ctx.borrows for ctx in self.stack)
                    and (field := property_field(lv)) is not None
                    and (base := path_chain(lv.expr)) is not None
                ):  # ``self.host = new`` through the property's setter: ``self._host``
                    self.rebind(f"{base[-1][0]}.{field}", r, stmt)
            return r
        if isinstance(lv, (TupleExpr, ListExpr)):
            items: list[tuple[str, object]] | None = None
            if info[0] == "tuple" and isinstance(info[1], list) and len(info[1]) == len(lv.items):
                # `a, b = b, a`: the values were read before any target is bound, so a
                # source the statement rebinds carries its value, not an alias of its name.
                targets: set[str] = set()
                target_names(lv, targets)
                items = [
                    ("value", it[1][1])
                    if it[0] == "copy"
                    and isinstance(it[1], tuple)
                    and root_name(it[1][0]) in targets
                    else it
                    for it in info[1]
                ]
            r2: State | None = st
            for i, item in enumerate(lv.items):
                if r2 is None:
                    return None
                r2 = self.bind(item, items[i] if items else ("fresh", None), r2, stmt)
            return r2
        if isinstance(lv, StarExpr):
            return self.bind(lv.expr, ("fresh", None), st, stmt)
        return self.ex(lv, st)

    def set_value(
        self,
        key: str,
        node: Expression,
        info: tuple[str, object],
        st: State,
        stmt: Node,
        *,
        is_name: bool,
    ) -> None:
        self.rebind(key, st, node)
        if not is_name:
            self.compound_keys.add(key)
        kind, payload = info
        if kind in ("producer", "producer-or-none") and isinstance(payload, Fact):
            nothing = frozenset({OWN}) if kind == "producer-or-none" else frozenset()
            if (
                is_name
                and isinstance(node, NameExpr)
                and key not in self.scope.nested_reads
                and key not in self.scope.shared
            ):
                st.put(key, frozenset({("P", payload.id, 0)}) | nothing)
                self.binds[payload.id] = (key, node)
            else:
                extra = STORED if isinstance(node, MemberExpr) else 0
                st.put(key, frozenset({("E", payload.id, extra)}) | nothing)
                self.stored_any = self.stored_any or bool(extra)
                if not is_name:
                    self.held_in.setdefault(payload.id, key)
        elif kind == "value" and isinstance(payload, frozenset):
            st.put(key, payload)
        elif kind == "copy" and isinstance(payload, tuple):
            src, atoms = payload
            self.aliased.add(src)
            if self.stored_any and any(a[0] == "E" and a[2] == STORED for a in atoms):
                self.note_handed(atoms, node.line)
                atoms = _handed_on(atoms)  # ``t = mon.pending``: another name has it
                st.put(src, atoms)
            if src != key:
                st.put(key, atoms)
                # ``alias = host`` and ``self.last = host``: a move of host moves them
                if is_name or (isinstance(node, MemberExpr) and src == root_name(src)):
                    if len(st.alias) >= MAX_ALIASES:  # a huge scope: forget the oldest
                        del st.alias[next(iter(st.alias))]
                    st.alias[key] = {src: True}

    def rebind(self, key: str, st: State, node: Node) -> State:
        self.rebound.add(key)
        if "[$" in key:
            at = (node.line, node.column)
            self.rebound_last[key] = max(self.rebound_last.get(key, at), at)
        for ctx in self.stack:
            if ctx.borrows:
                # The owner's name rebound inside its block holds another buffer from
                # here on (on this path and, not knowing paths, on every later one).
                ctx.borrows = [
                    b
                    for b in ctx.borrows
                    if b[0] != key
                    and not path_extends(b[0], key)
                    and not depends_on_name(b[0], key)
                ]  # (``tables[key]`` lent, ``key`` rebound: another element)
        if key in self.scope.flags:  # ``name = value`` sets it again (``set_flag``)
            st.with_flag(key, TOP_SET)
        self.partials.pop(key, None)
        self.generators.pop(key, None)
        old = st.vals.get(key)
        # A transfer stored into this attribute here and not handed on since, on any
        # path (where some path handed it on, it may be complete: silence)
        pending = old is not None and (
            any(a[0] == "P" for a in old)
            or bool(
                {a[1] for a in old if a[0] == "E" and a[2] == STORED}
                - {a[1] for a in old if a[0] == "E" and a[2] != STORED}
            )
        )
        if pending and old is not None and isinstance(node, Context):
            le = self.innermost_loop()
            for a in old:
                if a[0] == "E" and a[2] == STORED:
                    self.stored_drops[a[1]] = (node.line, id(le.stmt) if le is not None else 0)
            self.event("drop", node, key, old)
        self.lose(st.vals.pop(key, None))
        if self.elems.kept:  # ``pending = []``: what ``t.\0in:pending`` said is gone
            self.elems.changed(key, st)
        for k in self.compound_keys:  # only compound paths can extend or depend on key
            if k in st.vals and (path_extends(k, key) or depends_on_name(k, key)):
                gone = st.vals.pop(k)
                if not path_extends(k, key):  # ``bufs[$i]`` as ``i`` is rebound in a loop
                    self.elems.lost(k, gone, self.innermost_loop())
                self.lose(gone)
        if st.alias:
            st.alias.pop(key, None)
            for name in list(st.alias):
                targets = st.alias[name]
                for t in list(targets):
                    if t == key or path_extends(t, key) or depends_on_name(t, key):
                        del targets[t]
                if not targets:
                    del st.alias[name]
        return st

    def innermost_loop(self) -> LoopElements | None:
        for ctx in reversed(self.stack):
            if ctx.elements is not None:
                return ctx.elements
        return None

    def lose(self, atoms: Atoms | None) -> None:
        """A path holding ``atoms`` is rebound: a transfer still pending or handed on there
        is no longer held by it (see ``unpaired``)."""
        if atoms:
            self.unpaired.update(a[1] for a in atoms if a[0] in "PE")

    def delete(self, e: Expression, st: State) -> State | None:
        if isinstance(e, (TupleExpr, ListExpr)):
            r: State | None = st
            for item in e.items:
                r = self.delete(item, r) if r is not None else None
            return r
        if isinstance(e, NameExpr):
            return self.rebind(e.name, st, e)
        r2 = (
            self.ex(e.expr if isinstance(e, MemberExpr) else e.base, st)
            if isinstance(e, (MemberExpr, IndexExpr))
            else self.ex(e, st)
        )
        if r2 is not None and isinstance(e, IndexExpr):
            r2 = self.ex(e.index, r2)
            if r2 is not None:
                self.elems.store(e.base, r2)
        if r2 is not None and isinstance(e, MemberExpr) and self.elems.attr_marks:
            self.elems.attr_store(e.name, r2)
        chain = path_chain(e)
        if chain is not None and r2 is not None:
            self.rebind(chain[-1][0], r2, e)
        return r2

    def if_(self, s: IfStmt, st: State) -> State | None:
        outs: list[State | None] = []
        cur: State | None = st
        for cond, body in zip(s.expr, s.body, strict=False):
            if cur is None:
                break
            cur = self.test(cond, cur)
            if cur is None:
                break
            truth = literal_truth(cond)
            if truth is not False:
                taken = self.assume(cond, cur.copy(), True)
                outs.append(self.blk(body, taken) if taken is not None else None)
            if truth is True:
                cur = None
            elif cur is not None:
                cur = self.assume(cond, cur, False)
        if cur is not None:
            outs.append(self.blk(s.else_body, cur) if s.else_body is not None else cur)
        return join_states(*outs)

    def assume(self, cond: Expression, st: State, value: bool) -> State | None:
        """``st`` where ``cond`` is ``value``, or None where that cannot happen. Knows
        ``t.completed`` (see ``assume_completed``), ``X is None`` / a truth test, and
        the value of a flag (``flags.py``)."""
        parts = st.live_parts()
        if parts is not None:
            return self.each(st, partial(self.assume, cond, value=value))
        if isinstance(cond, UnaryExpr) and cond.op == "not":
            return self.assume(cond.expr, st, not value)
        if isinstance(cond, OpExpr) and cond.op in ("and", "or"):
            # `A and B` is true where both are; false where A is, or A is true and B false
            # (`or`: the dual). The right operand is only evaluated past the left one.
            short = cond.op == "or"  # the value of the left operand that decides alone
            if value == short:
                left = self.assume(cond.left, st.copy(), short)
                rest = self.assume(cond.left, st.copy(), not short)
                right = self.assume(cond.right, rest, short) if rest is not None else None
                return join_states(left, right)
            both = self.assume(cond.left, st, not short)
            return self.assume(cond.right, both, not short) if both is not None else None
        last = self.last_iteration_test(cond)
        if last is not None:  # ``if k + 1 < n:`` in ``for k in range(n)``
            flag, on_last = last
            st.with_flag(flag, _LAST if value == on_last else _NOT_LAST)
        flags = self.scope.flags
        if flags:
            narrowed: State | None = st
            if isinstance(cond, NameExpr) and cond.name in flags:
                narrowed = self.narrow_flag(st, cond.name, lambda v: truth(v, value))
            cmp = comparison(cond, flags)
            if cmp is not None:
                name, c, eq = cmp
                hit = frozenset({c})
                narrowed = self.narrow_flag(st, name, lambda v: v & hit if eq == value else v - hit)
            if narrowed is None:
                return None
        if isinstance(cond, MemberExpr) and cond.name == "completed":
            chain = path_chain(cond.expr)
            if chain is not None and not self.assume_completed(chain[-1][0], st, value):
                return None
        if isinstance(cond, MemberExpr) and cond.name == "closed" and not value:
            chain = path_chain(cond.expr)  # ``if not s.closed:``: open on this branch
            if chain is not None:
                st.vals.pop(chain[-1][0] + CLOSED, None)
        if (
            not value
            and (self.elems.kept or self.elems.active)
            and isinstance(cond, (NameExpr, MemberExpr))
        ):
            # ``while pending:`` left, ``if not pending:``: an empty container holds no
            # element, completed or moved (its marks go, elements.py)
            self.elems.store(cond, st)
        test = none_test_of(cond, st)
        if test is not None and test[1] == value:
            self.narrow_none(test[0], st)
        elif test is not None:
            self.narrow_not_none(test[0], st)
        return st

    def last_iteration_test(self, cond: Expression) -> tuple[str, bool] | None:
        """(the flag, the value ``cond`` has on the last iteration) where ``cond`` tells
        the last iteration of the innermost loop from the others (``iterations.py``)."""
        for ctx in reversed(self.stack):
            if ctx.kind == "loop":
                if ctx.last is None:
                    return None
                k, bound, flag = ctx.last
                on_last = last_truth(cond, k, bound)
                return (flag, on_last) if on_last is not None else None
            if ctx.kind == "comp":
                return None
        return None

    def narrow_flag(
        self, st: State, name: str, keep: Callable[[frozenset[int]], frozenset[int]]
    ) -> State | None:
        """``st`` (plain) where the flag ``name`` holds a constant ``keep`` keeps; None
        where it holds none of them (no path gets here)."""
        domain = self.scope.flags[name]
        was = st.flags.get(name, domain)
        if TOP in was:  # bound to something else: the test selects nothing
            return st
        now = keep(was)
        if not now:
            return None
        if now == domain:
            st.with_flag(name, None)
        else:
            st.with_flag(name, now)
        return st

    def flag_case(
        self, st: State, name: str, consts: frozenset[int], matched: bool
    ) -> State | None:
        """``st`` where the flag ``name`` holds one of ``consts`` (``matched``) or none."""

        def keep(v: frozenset[int]) -> frozenset[int]:
            return v & consts if matched else v - consts

        return self.each(st, lambda p: self.narrow_flag(p, name, keep))

    def set_flag(self, st: State, name: str, rv: Expression) -> State:
        """``name = rv`` bound the flag ``name``: on every path it holds what ``rv``
        gives (``flags.values``); the paths that differed only in it meet again."""
        parts = st.live_parts()
        if parts is not None:
            out = self.each(st, partial(self.set_flag, name=name, rv=rv))
            assert out is not None
            return out
        now = flag_values(rv)
        if now == self.scope.flags[name]:
            st.with_flag(name, None)
        else:
            st.with_flag(name, TOP_SET if now is None else now)
        return st

    def assume_completed(self, key: str, st: State, value: bool) -> bool:
        """``key.completed`` is ``value`` here (False: no path gets here). At run time
        ``completed`` is True once a ``wait()`` (or ``await``) has returned: a W atom is
        such a path, a P atom one where no code has completed it (pending, held here
        only; so is an E atom an exception made, ``EXC_PENDING``), another E atom may be
        either (handed on). The paths that contradict ``value`` are dropped from
        ``key``; ``done()`` polls and proves nothing."""
        self.completion_tested.add(key)
        atoms = st.vals.get(key)
        if not atoms or not any(a[0] in TRANSFER_KINDS for a in atoms):
            return True
        pending = {a for a in atoms if a[0] == "P" or (a[0] == "E" and a[2] == EXC_PENDING)}
        kept = (atoms - pending) if value else frozenset(a for a in atoms if a[0] != "W")
        if not kept:
            return False
        st.put(key, kept)
        if not value or not all(a[0] in TRANSFER_KINDS for a in atoms):
            # (With a path where ``key`` holds no transfer known here, such as an element
            # of a container some loop completed only in part, the paths that contradict
            # ``value`` are still dropped; the moves stay.)
            return True
        # Completed: the paths where the transfer was pending are gone, and with them
        # the move of the one buffer it took, where every completion of it rebound that
        # buffer (``host = up.wait()``) and nothing else holds it.
        for pid in sorted({a[1] for a in pending}):
            moved = self.moved.get(pid, [])
            if pid in self.unpaired or len(moved) != 1:
                continue
            if any(a[1] == pid and a[0] in "PE" for v in st.vals.values() for a in v):
                continue
            gone = ("M", pid, 0)
            v = st.get(moved[0])
            if gone in v:
                st.put(moved[0], (v - {gone}) or OWN_SET)
        return True

    def narrow_not_none(self, key: str, st: State) -> None:
        """``key`` is not None here: where it may hold a transfer or nothing (``pending =
        None``, then a transfer on some path), it holds one of those transfers."""
        atoms = st.vals.get(key)
        if atoms and OWN in atoms and any(a[0] in TRANSFER_KINDS for a in atoms):
            st.put(key, atoms - {OWN})

    def test(self, cond: Expression, st: State) -> State | None:
        """Evaluate a condition. A truth test of a path that holds a transfer reads no
        memory and hands nothing on (Transfer has no ``__bool__``: it is false only if
        None), like ``X is None``; ``not``, ``and`` and ``or`` look at their operands."""
        if isinstance(cond, UnaryExpr) and cond.op == "not":
            return self.test(cond.expr, st)
        if isinstance(cond, OpExpr) and cond.op in ("and", "or"):
            left = self.test(cond.left, st)
            if left is None:
                return None
            return join_states(left, self.test(cond.right, left.copy()))
        chain = path_chain(cond)
        if chain is not None:
            atoms = st.vals.get(chain[-1][0])
            if atoms and any(a[0] in TRANSFER_KINDS for a in atoms):
                self.read(chain, st, escape=False)
                return st
        return self.ex(cond, st)

    def narrow_none(self, key: str, st: State) -> None:
        """``key`` is None here, so it holds no transfer. The analysis is not relational:
        a buffer moved by a transfer that ``key`` held on some path stays "maybe moved"
        (``pending = None`` before a loop, ``if pending is not None: buf =
        pending.wait()`` at its top). Where no path can hold that transfer any more, its
        moves are gone as well: the only ways to lose a transfer are completing it into
        the moved buffer (which rebinds it) and the ones ``unpaired`` records, which
        keep the moves."""
        atoms = st.vals.get(key)
        if not atoms or not all(a[0] in "OPEW" for a in atoms):
            return
        st.put(key, OWN_SET)
        pending = {a[1] for a in atoms if a[0] == "P" or (a[0] == "E" and a[2] == EXC_PENDING)}
        for pid in sorted(pending):
            if pid in self.unpaired or any(
                a[1] == pid and a[0] in TRANSFER_KINDS for v in st.vals.values() for a in v
            ):
                continue
            gone = ("M", pid, 0)
            for k, v in list(st.vals.items()):
                if gone in v:
                    st.put(k, (v - {gone}) or OWN_SET)

    def loop(self, head_in: State, body: Callable[[State, _Ctx], State | None], ctx: _Ctx) -> State:
        head = head_in.copy()
        self.stack.append(ctx)
        try:
            for i in range(MAX_LOOP_ITERATIONS):
                ctx.breaks = []
                ctx.conts = []
                out = body(head.copy(), ctx)
                new = join_states(head, out, *ctx.conts)
                assert new is not None
                if i >= MAX_LOOP_ITERATIONS // 2:
                    # Parts may keep changing shape (split, then over MAX_PARTS and
                    # joined): from here on the head is one state, which converges.
                    new = joined_view(new)
                if new.same(head):
                    break
                head = new
        finally:
            self.stack.pop()
        return head

    def yield_away(self, e: YieldExpr, st: State) -> State | None:
        """``yield buf`` as a statement in a generator that takes the handle back through
        ``send()``: the consumer has the buffer (and may move it) and sends back the one
        to use, which the statement drops. ``buf`` is moved by the yield: a use before
        it is rebound (``buf = yield buf``) is reported."""
        cur = self.ex(e, st)
        chain = path_chain(e.expr) if e.expr is not None else None
        if cur is None or chain is None:
            return cur
        key = chain[-1][0]
        fact = self.scope.origin_facts.get(("<yield>", f"{e.line}:{e.column}"))
        if fact is None:
            fact = Fact(CallExpr(NameExpr("yield"), [], [], []), YIELDED, True)
            fact.line, fact.end = e.line, (e.line, e.column)
            fact.via = (
                f"the yield at line {e.line} handed it to the consumer, which may have moved it "
                "and sends back the buffer to use; this generator drops that one: bind it, "
                f'"{display_path(key)} = yield {display_path(key)}"'
            )
            self.scope.add(fact)
            self.scope.origin_facts[("<yield>", f"{e.line}:{e.column}")] = fact
        self.moved.setdefault(fact.id, [])
        if key not in self.moved[fact.id]:
            self.moved[fact.id].append(key)
        self.invalidate(key, frozenset({("M", fact.id, 0)}), cur)
        return cur

    def ring_reads(self, body: Block) -> None:
        """A loop reading ``C[e]`` before its own take-back ``C[e] = t.wait()`` of
        that element, then moving ``C[e]`` again (``syntax.reads_before_take_back``): at
        the read the element may still be moved by an earlier iteration ("may")."""
        for node, key, _line, movers in reads_before_take_back(body):
            for call in movers:
                fact = self.scope.fact_for(call, self.infer)
                if fact is None or not fact.confirmed:
                    continue
                keys = [(c[-1][0] if (c := path_chain(a)) else "") for a in call.args]
                if any(keys[i] == key for i in fact.consumed if i < len(keys)):
                    self.event("use", node, key, frozenset({("M", fact.id, 0), OWN}))
                    break

    def while_(self, s: WhileStmt, st: State) -> State | None:
        truth = literal_truth(s.expr)
        false_exit: list[State | None] = [None]

        def body(h: State, ctx: _Ctx) -> State | None:
            c = self.each(h, lambda p: self.test(s.expr, p))
            if c is None:
                false_exit[0] = None
                return None
            false_exit[0] = None if truth is True else self.assume(s.expr, c.copy(), False)
            if truth is False:
                return None
            taken = self.assume(s.expr, c, True)
            return self.blk(s.body, taken) if taken is not None else None

        ctx = _Ctx("loop")
        ctx.elements = self.elems.loop(s, [])
        self.ring_reads(s.body)
        self.loop(st, body, ctx)
        after = false_exit[0]
        self.elems.exit(ctx.elements, paths_of(after, *ctx.breaks), s.body)
        self.loop_ends([after, *ctx.breaks])
        if after is not None and s.else_body is not None:
            after = self.blk(s.else_body, after)
        return join_states(after, *ctx.breaks)

    def for_(self, s: ForStmt, st: State) -> State | None:
        r = self.ex(s.expr, st)
        if r is None:
            return None

        elements = self.elems.loop(s, [(s.index, s.expr)])

        self.infer_target(s.index, s.expr)

        each_value: tuple[str, object] = ("fresh", None)
        source: Expression = s.expr
        index: Expression = s.index
        numbered = (  # ``for k, t in enumerate(gen(...))``: t is what gen yields
            isinstance(source, CallExpr)
            and isinstance(source.callee, NameExpr)
            and source.callee.fullname == "builtins.enumerate"
            and source.arg_kinds == [ARG_POS]
            and isinstance(index, TupleExpr)
            and len(index.items) == 2
        )
        if numbered and isinstance(source, CallExpr) and isinstance(index, TupleExpr):
            source, index = source.args[0], index.items[1]
        if (
            isinstance(source, NameExpr)
            and source.name in self.generators
            and binds_once(self.scope.body, source.name)
        ):
            source = self.generators[source.name]  # ``gen = tiles(...)``, ``for t in gen``
        gen = generated_transfers(source)
        if gen is not None:  # ``for t in gen(...)``: each t is a transfer of its own
            name, items, arity = gen
            if not items and isinstance(index, NameExpr):
                each_value = ("producer", self.generated_fact(source, name))
            elif items and isinstance(index, TupleExpr) and len(index.items) == arity:
                fact = self.generated_fact(source, name)
                fact.items, fact.arity, fact.producer = items, arity, False
                parts = dict(zip(items, self.parts_of(fact), strict=True))
                each_value = (
                    "tuple",
                    [
                        ("producer", parts[i]) if i in parts else ("fresh", None)
                        for i in range(arity)
                    ],
                )
        if numbered and each_value[0] != "fresh":
            each_value = ("tuple", [("fresh", None), each_value])

        def start(h: State) -> State | None:
            b = self.bind(s.index, each_value, h, s)
            if b is not None:
                self.elems.bind_targets(elements, b)  # ``for h in hosts``: h is an element
            return b

        exits: list[State] = []  # how iterations end that may be the last (last round)

        def body(h: State, ctx: _Ctx) -> State | None:
            exits.clear()
            b = self.each(h, start)
            if b is None:
                return None
            out = self.blk(s.body, b)
            if ctx.last is not None:  # its last iteration's paths go to the exit only
                flag = ctx.last[2]
                ends = paths_of(out, *ctx.conts, *ctx.breaks)
                out = _apart(out, flag, exits)
                ctx.conts = [c for x in ctx.conts if (c := _apart(x, flag, exits))]
                ctx.breaks = [b for x in ctx.breaks if (b := _apart(x, flag, None))]
            else:
                ends = paths_of(out, *ctx.conts, *ctx.breaks)
            self.elems.iteration_end(elements, ends)
            return out

        ctx = _Ctx("loop")
        ctx.elements = elements
        counted = loop_bound(s)
        if counted is not None:
            ctx.last = (*counted, f"\0last@{s.line}:{s.column}")
        # ``for band in self.bands():`` where bands() yields inside ``with
        # self.frame.lend()``: the owner is borrowed while the body runs
        lends = (
            self.lending_gens.get(s.expr.name, [])
            if isinstance(s.expr, NameExpr)
            else self.lending_generator(s.expr)
        )
        ctx.borrows.extend((owner, kind, line, None) for owner, kind, line in lends)
        self.ring_reads(s.body)
        head = self.loop(r, body, ctx)
        # ``for attempt in range(n): ... if attempt == n - 1: raise ... continue``: the
        # loop is only left by its break (or return, raise), not exhausted
        # (a counted loop is exhausted at its entry or after an iteration that may be
        # its last, not after one its test said is not)
        done = join_states(r, *exits) if ctx.last is not None else head
        exhausted: State | None = None if never_exhausts(s) else done
        self.elems.exit(elements, paths_of(exhausted, *ctx.breaks), s.body)  # (elements.py)
        self.loop_ends([exhausted, *ctx.breaks])
        after: State | None = exhausted
        if s.else_body is not None:
            after = self.blk(s.else_body, head.copy())
        return join_states(after, *ctx.breaks)

    def lending_generator(
        self, call: Expression, managed: bool = False
    ) -> list[tuple[str, str, int]]:
        """What the program's generator ``call`` creates keeps borrowed while it is
        suspended (``blocks.yield_borrows``), as paths of this scope: ``self.frame``
        of ``obj.bands()`` is ``obj.frame``, a parameter the argument passed for it.
        ``managed``: ``call`` is the context of a ``with``, and the function a
        ``@contextmanager`` generator (its block runs while the generator is
        suspended at its ``yield``)."""
        if not isinstance(call, CallExpr):
            return []
        callee = call.callee
        names: dict[str, str] = {}
        fn: Node | None = None
        chain: Chain | None = None
        if isinstance(callee, MemberExpr):
            # (the declared or inferred type only: ``receiver()`` may summarise classes
            # to infer one, too dear for every ``x = obj.m()``)
            t = get_proper_type(static_type(callee.expr) or NoneType())
            chain = path_chain(callee.expr)
            if not isinstance(t, Instance) or chain is None:
                return []
            fn = t.type.get_method(callee.name)
        elif isinstance(callee, NameExpr):
            fn = callee.node
        if managed:
            if not isinstance(fn, Decorator) or not any(
                isinstance(d, RefExpr) and d.fullname == CONTEXTMANAGER for d in fn.decorators
            ):
                return []
            fn = fn.func
        if not isinstance(fn, FuncDef) or not fn.is_generator or fn.is_coroutine:
            return []
        # (a function from mypy's cache has neither arguments nor a body)
        args = getattr(fn, "arguments", None)
        if in_library(fn.fullname) or not args or not getattr(fn, "body", None):
            return []
        params = list(args)
        if chain is not None:
            if fn.is_static or fn.is_class:
                return []
            names[params[0].variable.name] = chain[-1][0]
            params = params[1:]
        for p, a, ak in zip(params, call.args, call.arg_kinds, strict=False):
            chain = path_chain(a) if ak == ARG_POS else None
            if chain is not None:
                names[p.variable.name] = chain[-1][0]
        out: list[tuple[str, str, int]] = []
        borrows = yield_borrows(fn)
        if managed and borrows:
            # the with block runs at the generator's yield: a lend of what every yield is
            # inside a lend of (``if frozen: with snap.lend(): yield ... else: with
            # live.lend(): yield ...`` lends neither for sure), of the object the caller
            # passed (not a parameter the body rebinds)
            rebound = bound_and_declared(fn.body)[0]
            names = {k: v for k, v in names.items() if k not in rebound}
            every = lent_at_every_yield(fn)
            borrows = tuple(b for b in borrows if b[0] in every)
        for owner, kind, line in borrows:
            root = root_name(owner)
            if root in names:
                out.append((names[root] + owner[len(root) :], kind, line))
        return out

    def suspend(self, e: CallExpr) -> None:
        """``next(g)`` of a lending generator: its owners stay borrowed until a ``for``
        over ``g`` exhausts it (or the scope ends)."""
        g = e.args[0]
        if not isinstance(g, NameExpr) or g.name not in self.lending_gens:
            return
        end = self.scope.node.end_line or e.line
        todo: list[Node] = list(self.scope.body)
        while todo:
            n = todo.pop()
            if isinstance(n, FuncItem):
                continue
            if (
                isinstance(n, Block)
                and n.body
                and n.body[0].line <= e.line <= (n.body[-1].end_line or n.body[-1].line)
            ):
                # (not past the block of the call: ``if peek: next(g)`` leaves the
                # ``else`` branch alone)
                end = min(end, n.body[-1].end_line or n.body[-1].line)
            if (
                isinstance(n, ForStmt)
                and isinstance(n.expr, NameExpr)
                and n.expr.name == g.name
                and n.line > e.line
            ):
                end = min(end, n.end_line or n.line)
            todo.extend(child_nodes(n))
        for owner, kind, line in self.lending_gens[g.name]:
            entry = (owner, kind, line, e.line, end)
            if entry not in self.suspended:
                self.suspended.append(entry)

    def generated_fact(self, call: Expression, gen: str) -> Fact:
        """The fact standing for each transfer a generator yields to a ``for`` loop
        (made once per scope): the loop variable holds it, pending, at each iteration."""
        key = ("<generated>", repr(position_key(call)))
        fact = self.scope.origin_facts.get(key)
        if fact is None:
            assert isinstance(call, CallExpr)
            fact = Fact(call, gen, True)
            fact.producer = True
            self.scope.add(fact)
            self.scope.origin_facts[key] = fact
        return fact

    def with_(self, s: WithStmt, st: State) -> State | None:
        ctx = _Ctx("with")
        ctx.stmt = s
        cur: State | None = st
        for e, t in zip(s.expr, s.target, strict=False):
            if cur is None:
                return None
            cur = self.ex(e, cur)
            if cur is None:
                return None
            fact = self.scope.fact_for(e, self.infer) if isinstance(e, CallExpr) else None
            if t is not None:
                cur = self.bind(t, ("fresh", None), cur, s)
                if cur is None:
                    return None
                if fact is not None and fact.lend and isinstance(t, NameExpr):
                    assert isinstance(e, CallExpr)
                    bound = frozenset(bound_and_declared(s.body)[0])
                    self.enter_lend(ctx, t.name, e, fact, cur, bound, "")
                stack = exit_stack(e, t, s.body)
                if stack is not None:
                    shown = path_chain(e.callee) if isinstance(e, CallExpr) else None
                    cm = display_path(shown[-1][0]) if shown else "ExitStack"
                    label = f'"with {cm}() as {stack}"'
                    ctx.stacks[stack] = (label, frozenset(bound_and_declared(s.body)[0]))
            managed = self.user_manager(e, t) if self.scope.objects is not None else None
            if managed is not None and self.scope.objects is not None:
                self.scope.objects.run_method(self, e, managed[0], managed[1], "__enter__", cur)
                ctx.managers.append((e, *managed))
            if isinstance(e, CallExpr) and t is not None and pins_in_place(e):
                names: set[str] = set()
                target_names(t, names)
                pinned = tuple(sorted(names))
                ctx.pins.append((s, pinned, e.line, self.kept_pins(s, pinned, None), ""))
            borrow = borrowed_owner(e, fact)
            if borrow is not None:
                ctx.borrows.append((*borrow, e.line, s))
            elif fact is not None and fact.lend:  # ``with self.inspect() as view``
                for owner, kind, _line in self.lending_generator(e, managed=True):
                    ctx.borrows.append((owner, kind, e.line, s))
        if cur is None:
            return None
        swallow = swallows(s.expr[-1], self.infer) if s.expr else ""
        if swallow:
            return self.swallowing_with(s, ctx, cur, swallow)
        self.stack.append(ctx)
        try:
            out = self.blk(s.body, cur)
        finally:
            self.stack.pop()
        return self.transform(ctx, out) if out is not None else None

    def user_manager(
        self, e: Expression, t: Expression | None
    ) -> tuple[Expression, TypeInfo] | None:
        """The object a ``with`` item's ``__enter__``/``__exit__`` run on, where its class
        (a class of the program's, which defines ``__enter__``) is known: the item itself
        if a path (``with stage as dev``), or the target where the item constructs the
        object and ``__enter__`` returns it (``with Session(s) as session``)."""
        if path_chain(e) is not None:
            info = self.receiver(e)
            recv: Expression = e
        elif isinstance(e, CallExpr) and isinstance(t, NameExpr):
            info = result_info(e, self.infer)
            enter = info.get_method("__enter__") if info is not None else None
            ret = (
                enter.type.ret_type
                if isinstance(enter, FuncDef) and isinstance(enter.type, CallableType)
                else None
            )
            p = get_proper_type(ret) if ret is not None else None
            if not isinstance(p, (Instance, TypeVarType)) or (
                isinstance(p, Instance) and p.type is not info
            ):
                return None  # it returns something else (``with Staged(h) as dev``)
            recv = t
        else:
            return None
        if not isinstance(info, TypeInfo) or in_library(info.module_name):
            return None
        if not any("__enter__" in b.names for b in info.mro[:-1]):
            return None
        return recv, info

    def enter_lend(
        self,
        ctx: _Ctx,
        name: str,
        e: CallExpr,
        fact: Fact,
        st: State,
        bound: frozenset[str],
        block: str,
    ) -> None:
        """``name`` holds the handle lent by ``e`` until the with block of ``ctx`` ends
        (``with e as name``, or ``name = stack.enter_context(e)``: then ``block`` is how
        the stack's block reads in messages); ``bound``: the names that block binds."""
        if (name, fact.id) not in ctx.expires:
            ctx.expires.append((name, fact.id))
        st.put(name, frozenset({("L", fact.id, 0)}))
        self.lend_bound[fact.id] = bound
        chain = None
        callee = e.callee
        if isinstance(callee, MemberExpr) and callee.name == "lend":
            chain = path_chain(callee.expr)
            self.lend_blocks[fact.id] = block or '"with ... .lend()"'
        if fact.id not in self.lend_blocks:
            # a user context manager (``with borrowed(host) as v:``): the owner is its
            # first argument
            shown = path_chain(callee)
            cm = display_path(shown[-1][0]) if shown else fact.callee
            self.lend_blocks[fact.id] = block or f'"with {cm}(...)"'
            chain = path_chain(e.args[0]) if e.args else None
        owner = display_path(chain[-1][0]) if chain else ""
        self.lends[fact.id] = (name, owner)

    def stack_lend(self, name: str, rv: CallExpr, st: State) -> None:
        """``name = stack.enter_context(x.lend())`` inside ``with ExitStack() as stack``:
        a lend that ends with the stack's block (and borrows ``x`` until then)."""
        entered = entered_on_stack(rv)
        if entered is None:
            return
        stack, inner = entered
        fact = self.scope.fact_for(inner, self.infer)
        if fact is None or not fact.lend:
            return
        for ctx in reversed(self.stack):
            if ctx.kind == "with" and stack in ctx.stacks:
                label, bound = ctx.stacks[stack]
                self.enter_lend(ctx, name, inner, fact, st, bound, label)
                borrow = borrowed_owner(inner, fact)
                held = (*borrow, inner.line, None) if borrow is not None else None
                if held and root_name(held[0]) not in bound and held not in ctx.borrows:
                    ctx.borrows.append(held)
                return

    def stack_close(self, e: CallExpr, callee: MemberExpr) -> None:
        """``stack.callback(s.close)`` inside ``with ExitStack() as stack``: the stream
        ``s`` is closed when the stack's block ends."""
        arg = e.args[0]
        if not (isinstance(callee.expr, NameExpr) and isinstance(arg, MemberExpr)):
            return
        if arg.name != "close" or len(e.args) != 1:
            return
        chain = path_chain(arg.expr)
        info = self.receiver(arg.expr)
        if chain is None or not isinstance(info, TypeInfo) or info.fullname != STREAM:
            return
        for ctx in reversed(self.stack):
            if ctx.kind == "with" and callee.expr.name in ctx.stacks:
                if (chain[-1][0], e) not in ctx.closes:
                    ctx.closes.append((chain[-1][0], e))
                return

    def stack_pin(self, target: Expression, rv: CallExpr) -> None:
        """``h = stack.enter_context(nx.pinned(a))`` (or ``nx.mapped``, several arrays
        ``ha, hb = ...``) inside ``with ExitStack() as stack``: a pinned block that ends
        with the stack's block."""
        entered = entered_on_stack(rv)
        if entered is None or not pins_in_place(entered[1]):
            return
        stack, inner = entered
        for ctx in reversed(self.stack):
            if ctx.kind == "with" and stack in ctx.stacks and ctx.stmt is not None:
                names: set[str] = set()
                target_names(target, names)
                bound = tuple(sorted(names))
                kept = self.kept_pins(ctx.stmt, bound, rv)
                entry = (ctx.stmt, bound, inner.line, kept, ctx.stacks[stack][0])
                if entry not in ctx.pins:
                    ctx.pins.append(entry)
                return

    def kept_pins(
        self, s: WithStmt, names: tuple[str, ...], entering: CallExpr | None
    ) -> tuple[str, ...]:
        """``blocks.kept_handles`` of the block of ``s`` (cached per run)."""
        key = (id(s), id(entering))
        got = self._kept_pins.get(key)
        if got is None:
            got = kept_handles(s.body, names, entering)
            self._kept_pins[key] = got
        return got

    def swallowing_with(self, s: WithStmt, ctx: _Ctx, st: State, swallow: str) -> State | None:
        """A ``with`` whose context manager may swallow the body's exception: like
        ``try: body except: pass`` (an exception raised BY a statement leaves the state
        before it: a refused numbaxfer call moves nothing), and for ``pytest.raises``
        without the path where the body completes."""
        catch = _Ctx("try")
        catch.catches_closed = True  # (``pytest.raises(nx.StreamClosedError)``, too)
        self.stack.append(catch)
        self.n_try += 1
        raiser = self.raiser
        if swallow == "always" and s.body.body:
            self.raiser = s.body.body[-1]
        try:
            self.deliver_exc(st)
            self.stack.append(ctx)
            try:
                out = self.try_body(s.body, st.copy())
            finally:
                self.stack.pop()
        finally:
            self.raiser = raiser
            self.n_try -= 1
            self.stack.pop()
        normal = self.transform(ctx, out) if out is not None and swallow == "maybe" else None
        return join_states(normal, catch.exc)

    def try_(self, s: TryStmt, st: State) -> State | None:
        fin: _Ctx | None = None
        if s.finally_body is not None:
            fin = _Ctx("finally")
            fin.finally_body = s.finally_body
            self.stack.append(fin)
        try:
            tctx = _Ctx("try")
            tctx.program_only = (
                bool(s.types)
                and all(program_exception(t) for t in s.types)
                and not self.signal_handlers(s.types)
            )
            tctx.catches_closed = any(catches_stream_closed(t) for t in s.types)
            self.stack.append(tctx)
            self.n_try += 1
            try:
                first = s.body.body[0] if s.body.body else None
                if first is not None:
                    self.deliver_before(first, st)
                else:
                    self.deliver_exc(st)
                body_out = self.try_body(s.body, st.copy())
            finally:
                self.n_try -= 1
                self.stack.pop()
            exc = tctx.exc
            outs: list[State | None] = []
            caught_all = False
            for typ, var, handler in zip(s.types, s.vars, s.handlers, strict=False):
                if exc is None:
                    break
                h = self.each(exc.copy(), partial(self.handler_entry, s, typ, var))
                outs.append(self.blk(handler, h))
                caught_all = caught_all or catches_all(typ)
            if body_out is not None and s.else_body is not None:
                body_out = self.blk(s.else_body, body_out)
            outs.append(body_out)
            normal = join_states(*outs)
            # (what passed the handlers by goes on: to the finally, to outer handlers)
            propagating = join_states(None if caught_all else exc, tctx.lib_exc)
        finally:
            if fin is not None:
                self.stack.pop()
        if s.finally_body is None:
            if propagating is not None:
                self.deliver_exc(propagating)
            return normal
        if propagating is not None:
            fin_exc = self.blk(s.finally_body, join_states(normal, propagating))
            if fin_exc is not None:
                self.deliver_exc(fin_exc)
        return self.blk(s.finally_body, normal) if normal is not None else None

    def handler_entry(
        self, s: TryStmt, typ: Expression | None, var: NameExpr | None, h: State
    ) -> State | None:
        """An ``except typ as var:`` handler is entered with ``h``. A handler that ends
        with ``continue`` skips the item and goes on as normal, and one of a named class
        that ends with ``return`` answers the call as normal (``except CorruptPacket:
        return None``): a transfer pending where the exception was raised is pending
        again there (the next iteration, or the return, drops it). (Other handlers
        leave the program on an error path, where leaks are not reported: ``except
        BaseException as e: errors.append(e)`` in a worker.)"""
        handler = next((b for t, b in zip(s.types, s.handlers, strict=False) if t is typ), None)
        if handler is not None and handler.body and recovers(typ, handler.body[-1]):
            for key, atoms in list(h.vals.items()):
                if any(a[0] == "E" and a[2] == EXC_PENDING for a in atoms):
                    h.vals[key] = frozenset(
                        ("P", a[1], 0) if a[0] == "E" and a[2] == EXC_PENDING else a for a in atoms
                    )
        out: State | None = self.ex(typ, h) if typ is not None else h
        if var is not None and out is not None:
            out = self.bind(var, ("fresh", None), out, s)
        return out

    def match(self, s: MatchStmt, st: State) -> State | None:
        cur = self.ex(s.subject, st)
        outs: list[State | None] = []
        subject = s.subject
        flag = (
            subject.name
            if isinstance(subject, NameExpr) and subject.name in self.scope.flags
            else None
        )
        for pattern, guard, body in zip(s.patterns, s.guards, s.bodies, strict=False):
            if cur is None:
                break
            consts = pattern_constants(pattern) if flag is not None else None
            if flag is not None and consts is not None:
                # ``case Phase.FILL:`` on a flag: the paths where it holds that member.
                c: State | None = self.flag_case(cur.copy(), flag, consts, True)
                if c is not None:
                    c = self.pattern(pattern, c, s)
                if c is not None and guard is not None:
                    c = self.ex(guard, c)
                if c is not None:
                    outs.append(self.blk(body, c.copy()))
                missed = self.flag_case(cur, flag, consts, False)
                cur = missed if guard is None else join_states(missed, c)
                continue
            c = self.pattern(pattern, cur.copy(), s)
            if c is not None and guard is not None:
                c = self.ex(guard, c)
            if c is None:
                continue
            outs.append(self.blk(body, c.copy()))
            irrefutable = (
                guard is None and isinstance(pattern, AsPattern) and (pattern.pattern is None)
            )
            cur = None if irrefutable else join_states(cur, c)
        outs.append(cur)
        return join_states(*outs)

    def pattern(self, p: Pattern, st: State, stmt: Node) -> State | None:
        r: State | None = st
        if isinstance(p, ValuePattern):
            return self.ex(p.expr, st)
        if isinstance(p, ClassPattern):
            r = self.ex(p.class_ref, st)
        if isinstance(p, MappingPattern):
            for k in p.keys:
                r = self.ex(k, r) if r is not None else None
        for child in child_nodes(p):
            if r is None:
                return None
            if isinstance(child, Pattern):
                r = self.pattern(child, r, stmt)
            elif isinstance(child, NameExpr) and not isinstance(p, ClassPattern):
                r = self.rebind(child.name, r, child)
        return r

    # -- non-local control flow ------------------------------------------------------
    def transform(self, ctx: _Ctx, st: State, *, exc: bool = False) -> State | None:
        parts = st.live_parts()
        if parts is not None:
            return self.each(st, partial(self.transform, ctx, exc=exc))
        if ctx.kind == "with":
            if self.scope.objects is not None:
                for site, recv, info in reversed(ctx.managers):  # ``__exit__`` runs
                    self.scope.objects.run_method(self, site, recv, info, "__exit__", st)
            for stmt, handles, line, kept, label in ctx.pins:
                if not exc:
                    self.pinned_end(stmt, handles, st, f"{label}|{line}" if label else "")
                # The block's exit expires the handles (the memory is unpinned).
                ended = frozenset({("U", line, stmt.end_line or stmt.line)})
                for name in kept:
                    self.invalidate(name, ended, st)
            clear_held(st)  # ``__exit__`` runs
            end = ctx.stmt.end_line if ctx.stmt is not None else None
            for path, node in ctx.closes:  # ``stack.callback(s.close)``
                how = f"(its callback registered there, run as the with block ended at line {end})"
                self.mark_closed(path, node, st, how if end else "")
            for name, fact_id in ctx.expires:
                self.invalidate(name, frozenset({("X", fact_id, 0)}), st)
                # Whatever holds the lent handle (an alias, an attribute, a container
                # slot) holds an expired one now.
                live, dead = ("L", fact_id, 0), ("X", fact_id, 0)
                for k, v in list(st.vals.items()):
                    if live in v:
                        st.put(k, (v - {live}) | {dead})
            return st
        if ctx.kind == "finally" and ctx.finally_body is not None:
            idx = self.stack.index(ctx)
            saved = self.stack[idx:]
            del self.stack[idx:]
            saved_try = self.n_try
            self.n_try = sum(1 for c in self.stack if c.kind == "try")
            try:
                return self.blk(ctx.finally_body, st.copy())
            finally:
                self.stack.extend(saved)
                self.n_try = saved_try
        return st

    def through(self, st: State, depth: int) -> State | None:
        """Leave every context above ``depth`` (innermost first)."""
        cur: State | None = st.copy()
        for ctx in reversed(self.stack[depth:]):
            if cur is None:
                return None
            cur = self.transform(ctx, cur)
        return cur

    def _deliver_part(
        self, library: bool, forget_completed: bool, handed: frozenset[str], st: State
    ) -> None:
        self.deliver_exc(st, library, forget_completed=forget_completed, handed=handed)

    def deliver_exc(
        self,
        st: State,
        library: bool = False,
        *,
        forget_completed: bool = False,
        handed: frozenset[str] = frozenset(),
    ) -> None:
        """``st`` reaches the handlers of the innermost ``try`` (an exception raised
        here); ``library``: only numbaxfer's and the builtins' exceptions can be (a
        ``try`` whose handlers catch only the program's classes lets it pass by);
        ``forget_completed``: a transfer completed in ``st`` is not reported as
        completed twice there (``state.completed_before``); ``handed``: the names the
        raising statement passes to a call (which may have completed them before it
        raised: handed on, not pending where the exception was raised)."""
        if st.live_parts() is not None:
            self.each(st, partial(self._deliver_part, library, forget_completed, handed))
            return
        for i in range(len(self.stack) - 1, -1, -1):
            ctx = self.stack[i]
            if ctx.kind == "try":
                cur = st.copy()
                for inner in self.stack[i + 1 :]:
                    if inner.kind == "with":
                        self.transform(inner, cur, exc=True)
                # Leaks on exceptional paths are not reported: treat pending transfers
                # as handed on there (but still pending: ``EXC_PENDING``).
                for key, atoms in list(cur.vals.items()):
                    if any(a[0] == "P" or (forget_completed and a[0] == "W") for a in atoms):
                        cur.vals[key] = frozenset(
                            ("E", a[1], 0 if key in handed else EXC_PENDING)
                            if a[0] == "P"
                            else ("W", a[1], -a[2])
                            if a[0] == "W" and forget_completed and a[2] > 0
                            else a
                            for a in atoms
                        )
                if library and ctx.program_only:
                    ctx.lib_exc = join_states(ctx.lib_exc, cur)
                else:
                    ctx.exc = join_states(ctx.exc, cur)
                return

    # -- expressions -----------------------------------------------------------------
    def ex(self, e: Expression, st: State) -> State | None:
        # The common node kinds first (this runs for every expression node).
        if isinstance(e, NameExpr):
            if st.vals:
                self.read([(e.name, e)], st)
            return st
        if isinstance(e, CallExpr):
            return self.call(e, st)
        if isinstance(e, MemberExpr):
            chain = path_chain(e)
            if chain is not None:
                self.read(chain, st)
                if self.scope.objects is not None:
                    # ``obj.prop`` (also ``obj.prop.max()``): its getter runs
                    for _key, node in chain[1:]:
                        if isinstance(node, MemberExpr):
                            self.scope.objects.member(self, node, st)
                return st
            if self.elems.active and e.name in METADATA and isinstance(e.expr, IndexExpr):
                # ``parts[f(i)].shape``: metadata of some element (elements.unspelled)
                inner = self.elems.unspelled(e.expr, st)
                if inner is not None:
                    r0 = self.ex(e.expr.index, st)
                    if r0 is not None:
                        self.read([*inner, (inner[-1][0] + "." + e.name, e)], r0)
                    return r0
            return self.ex(e.expr, st)
        if type(e) in LEAVES:
            return st
        if isinstance(e, AwaitExpr):
            if self.stored_any:
                self.hand_on_stored(st, e.line)  # other tasks run meanwhile
            awaited = self.await_(e, st)
            if awaited is not None and self.elems.attr_marks:
                self.elems.clear_attrs(awaited)  # other code runs meanwhile (elements.py)
            return awaited
        none_test = none_test_of(e, st) if isinstance(e, ComparisonExpr) else None
        if isinstance(e, ComparisonExpr) and none_test is not None:
            for x in e.operands:
                chain = path_chain(x)
                if chain is not None and chain[-1][0] == none_test[0]:
                    # comparing with None reads no memory and hands nothing on
                    self.read(chain, st, escape=False)
            return st
        if isinstance(e, IndexExpr):
            chain = path_chain(e)
            r = self.ex(e.base, st) if chain is None else st
            if r is not None:
                r = self.ex(e.index, r)
            if chain is None and r is not None and self.elems.active:
                chain = self.elems.unspelled(e, r)  # ``parts[f(i)]``: some element
            if chain is not None and r is not None:
                self.read(chain, r)
            return r
        if isinstance(e, OpExpr):
            left = self.ex(e.left, st)
            if left is None:
                return None
            if e.op in ("and", "or"):
                right = self.ex(e.right, left.copy())
                return join_states(left, right)
            return self.ex(e.right, left)
        if isinstance(e, ConditionalExpr):
            # Each arm sees its side of the condition, as an ``if`` statement's branches
            # do (``seed = up.wait() if up is not None else seed``).
            c = self.test(e.cond, st)
            if c is None:
                return None
            yes = self.assume(e.cond, c.copy(), True)
            no = self.assume(e.cond, c.copy(), False)
            if yes is None and no is None:  # cannot be: keep both arms unnarrowed
                yes, no = c.copy(), c
            kept = self.kept_arm
            arms: list[State | None] = []
            for arm, side in ((e.if_expr, yes), (e.else_expr, no)):
                if side is None:
                    arms.append(None)
                    if kept is not None and id(arm) == kept[0]:
                        self.kept_atoms = frozenset()
                    continue
                if kept is not None and id(arm) == kept[0]:
                    # ``x = ... if c else x``: this side keeps x as it is there (moved
                    # or not); no memory is touched, nothing is handed on: no use
                    held = side.get(kept[1])
                    self.kept_atoms = held
                    if not any(a[0] in "PEWL" for a in held):
                        arms.append(self.copy(arm, side))  # a copy: no use (``flow.copy``)
                        continue
                arms.append(self.ex(arm, side))
            return join_states(*arms)
        if isinstance(e, AssignmentExpr):
            r2 = self.ex(e.value, st)
            if r2 is None:
                return None
            return self.bind(e.target, self.value_info(e.value, r2), r2, e)
        if isinstance(e, (ListComprehension, SetComprehension)):
            return self.comprehension(e.generator, st)
        if isinstance(e, (GeneratorExpr, DictionaryComprehension)):
            return self.comprehension(e, st)
        if isinstance(e, LambdaExpr):
            if id(e) not in self.lambdas_seen:
                self.lambdas_seen.add(id(e))
                self.lambda_reads.update(root_name(r) for r in free_reads(e))
            return st
        cur: State | None = st
        for child in child_nodes(e):
            if cur is None:
                return None
            if isinstance(child, Expression):
                cur = self.ex(child, cur)
        if cur is not None and isinstance(e, (YieldExpr, YieldFromExpr)):
            if isinstance(e, YieldExpr) and e.expr is not None:
                self.yield_transfers(e.expr, cur)
            if self.elems.attr_marks:
                self.elems.clear_attrs(cur)  # the consumer runs: it may put attributes back
            if self.stored_any:
                self.hand_on_stored(cur, e.line)  # ... or complete what attributes hold
        return cur

    def yield_transfers(self, value: Expression, st: State) -> None:
        """``yield n, s.upload(self.staging, ...)``: the consumer gets the transfer and
        may complete it and rebind ``self.staging`` before it resumes the generator.
        What the transfer moved, where others can reach it (an attribute, an element),
        is unknown after the yield (silence); a local name stays moved."""
        items = value.items if isinstance(value, TupleExpr) else [value]
        fids: set[int] = set()
        for item in items:
            if isinstance(item, CallExpr):
                fact = self.scope.fact_for(item, self.infer)
                if fact is not None and fact.producer:
                    fids.add(fact.id)
            elif (chain := path_chain(item)) is not None:
                fids.update(a[1] for a in st.get(chain[-1][0]) if a[0] in "PE")
        for fid in fids:
            for key in self.moved.get(fid, ()):
                if key != root_name(key) and key in st.vals:
                    kept = frozenset(a for a in st.vals[key] if not (a[0] == "M" and a[1] == fid))
                    st.put(key, kept or OWN_SET)

    def comprehension(self, g: GeneratorExpr | DictionaryComprehension, st: State) -> State | None:
        first = self.ex(g.sequences[0], st) if g.sequences else st
        if first is None:
            return None
        names: set[str] = set()
        for idx in g.indices:
            target_names(idx, names)
        saved = {n: first.vals.get(n) for n in names}
        saved_alias = {n: first.alias.get(n) for n in names}
        for idx, seq in zip(g.indices, g.sequences, strict=False):
            self.infer_target(idx, seq)
        elements = self.elems.loop(g, list(zip(g.indices, g.sequences, strict=False)))

        def body(h: State, ctx: _Ctx) -> State | None:
            cur: State | None = h
            for i, (idx, seq, conds) in enumerate(
                zip(g.indices, g.sequences, g.condlists, strict=False)
            ):
                if cur is None:
                    return None
                if i > 0:
                    cur = self.ex(seq, cur)
                    if cur is None:
                        return None
                cur = self.bind(idx, ("fresh", None), cur, g)
                if cur is not None:
                    self.elems.bind_targets(elements, cur)
                for c in conds:
                    if cur is None:
                        return None
                    cur = self.ex(c, cur)
            if cur is None:
                return None
            # ``[t.wait() for t in ts if t.label != skip]``: an element the condition
            # skips is left as it was (the iteration ends there too)
            skipped = cur.copy() if any(g.condlists) else None
            if isinstance(g, GeneratorExpr):
                out = self.ex(g.left_expr, cur)
            else:
                k = self.ex(g.key, cur) if g.key is not None else cur
                out = self.ex(g.value, k) if k is not None else None
            self.elems.iteration_end(elements, [out, skipped])
            return join_states(out, skipped) if skipped is not None else out

        ctx = _Ctx("comp")
        ctx.elements = elements
        head = self.loop(first, body, ctx)
        for n in names:
            head.vals.pop(n, None)
            old = saved[n]
            if old is not None:
                head.vals[n] = old
            head.alias.pop(n, None)
            old_alias = saved_alias[n]
            if old_alias is not None:
                head.alias[n] = old_alias
        for k in [k for k in head.vals if "[$" in k and any(depends_on_name(k, n) for n in names)]:
            # ``[s.upload(bufs[i]) ...  for i in ...]``: that ``i`` was the comprehension's
            self.elems.lost(k, head.vals[k], elements)
            self.lose(head.vals.pop(k))
        self.elems.exit(elements, [head], g)
        self.loop_ends([head])
        return head

    def loop_ends(self, states: list[State | None]) -> None:
        """A loop ends (its iterator or its test ran last): see held.py."""
        for x in paths_of(*states):
            if x is not None and HELD in x.vals:
                clear_held(x)

    def read(
        self,
        chain: Chain,
        st: State,
        *,
        escape: bool = True,
        via: str = "",
        formatted: bool = False,
        whole: bool = True,
    ) -> None:
        """A read of the path ``chain[-1]``: report uses of moved/expired prefixes.
        ``formatted``: the value itself is only formatted (``print(x)``, ``f"{x}"``): a
        numbaxfer handle's repr reads no memory (a moved one says "moved").
        ``whole`` False: the value itself is only copied (``flow.copy``), not used."""
        if not st.vals:
            return
        full = chain[-1][0]
        for i, (key, node) in enumerate(chain):
            atoms = st.vals.get(key)
            if i and self.elems.active and key[len(chain[i - 1][0])] == "[":
                # an element of a container whose elements may be moved (elements.py)
                atoms = self.elems.element(chain[i - 1][0], atoms, st)
            elif i > 1 and self.elems.attr_marks and key[len(chain[i - 1][0])] == ".":
                atoms = self.elems.element_attr(chain, i, atoms, st)  # ``jobs[0].host``
            if atoms is None:
                continue
            rest = full[len(key) + 1 :] if len(full) > len(key) else ""
            if (whole or rest) and any(a[0] in "MXGU" for a in atoms):
                shown = formatted and not rest
                meta = (shown or first_attr(rest) in METADATA) and self.metadata_ok(atoms)
                if not meta:
                    self.event("use", node, key, atoms, via)
                    if self.read_marks:
                        self.note_read(node, key, atoms, st)
            if escape and any(a[0] == "P" or (a[0] == "E" and a[2] == STORED) for a in atoms):
                nxt = chain[i + 1][0] if i + 1 < len(chain) else None
                attr = nxt[len(key) + 1 :] if nxt is not None else None
                if attr is None or attr not in TRANSFER_NEUTRAL:
                    self.note_handed(atoms, node.line)
                    st.put(key, _handed_on(atoms))

    def library_method(self, e: CallExpr) -> bool:
        """``s.launch(...)``: a method of one of numbaxfer's classes (it runs none of the
        program's Python code on the objects it is not given)."""
        callee = e.callee
        if not isinstance(callee, MemberExpr):
            return False
        info = self.receiver(callee.expr)
        return isinstance(info, TypeInfo) and in_library(info.fullname)

    def note_handed(self, atoms: Atoms, line: int) -> None:
        le = self.innermost_loop()
        where = (line, id(le.stmt) if le is not None else 0)
        for a in atoms:
            if a[0] == "E" and a[2] == STORED:
                self.stored_handed.setdefault(a[1], set()).add(where)

    def stored_dropped(self, fid: int) -> bool:
        """Is the drop of ``fid`` (stored into an attribute here) certain enough to
        report: no path hands it on before the drop (an earlier line, or anywhere in the
        loop the drop is in: an earlier iteration)?"""
        drop = self.stored_drops.get(fid)
        if drop is None:
            return False
        line, loop = drop
        return not any(
            at < line or (loop and in_loop == loop)
            for at, in_loop in self.stored_handed.get(fid, ())
        )

    def hand_on_stored(self, st: State, line: int) -> None:
        """Transfers stored into attributes here (``STORED``) become plain hand-ons:
        code of the program runs (a call, ``yield``, ``await``) and may complete them."""
        for key, atoms in list(st.vals.items()):
            if any(a[0] == "E" and a[2] == STORED for a in atoms):
                self.note_handed(atoms, line)
                st.vals[key] = _handed_on(atoms)

    def note_read(self, node: Context, key: str, atoms: Atoms, st: State) -> None:
        """A read of ``key`` while it holds one of ``read_marks``: kept under
        ``key + READS`` (rebinding ``key`` forgets it) for ``complete``."""
        marks = {a[1] for a in atoms if a[0] == "M" and a[1] in self.read_marks}
        if not marks:
            return
        rkey = key + READS
        self.compound_keys.add(rkey)
        idx = len(self.read_nodes)
        self.read_nodes.append(node)
        st.put(rkey, (st.get(rkey) - OWN_SET) | {("R", m, idx) for m in marks})

    def escapes(self, e: Expression, st: State, how: str, into: Expression) -> None:
        """``e`` leaves its lend block through ``how`` (``return``, a ``store`` into an
        attribute, a container slot or a global, an add to a ``container``): a live lent
        handle in it escapes (read later, it is expired), and so does a local function or
        lambda that reads a lent handle (a closure). Metadata (``v.shape``) and values
        computed from a lent handle are new values. A store into a holder bound inside
        the block itself dies with it (and its later reads are caught as uses)."""
        target = path_chain(into) if how != "return" else None
        root = root_name(target[-1][0]) if target else None
        for item in escaping_parts(e):
            reads: set[str] | frozenset[str] | None = None
            if isinstance(item, LambdaExpr):
                reads = free_reads(item)
            elif isinstance(item, NameExpr) and item.name in self.scope.local_funcs:
                reads = self.scope.local_funcs[item.name]
            closure = reads is not None
            if reads is not None:
                paths = [(q, item) for q in sorted(reads)]
            else:
                chain = path_chain(item)
                paths = [(chain[-1][0], item)] if chain is not None else []
            for q, node in paths:
                for key in path_prefixes(q):
                    atoms = st.vals.get(key)
                    kinds = "LX" if closure else "L"  # an expired one read here is a use
                    lent = frozenset(a for a in atoms or () if a[0] in kinds)
                    rest = q[len(key) + 1 :] if len(q) > len(key) else ""
                    if not lent or first_attr(rest) in METADATA:
                        continue
                    if root is not None and root not in self.scope.shared:
                        lent = frozenset(
                            a for a in lent if root not in self.lend_bound.get(a[1], ())
                        )
                    if lent:
                        extra = f"{how} closure" if closure else how
                        self.event("escape", node, key, lent, extra)
        if how in ("store", "container") and target is not None and _module_global(target[0][1]):
            for item in escaping_parts(e):  # ``_EXPORTED[name] = view``, view: Lent
                fid = self.lent_parameter(item)
                if fid is not None and isinstance(item, NameExpr):
                    self.event("escape", item, item.name, frozenset({("L", fid, 0)}), how)

    def closures_returned(self, ret: ReturnStmt, e: Expression, st: State) -> None:
        """A local function or lambda returned (``return finish``) runs after this
        function has returned, when the variables of this scope it reads hold what they
        hold here for good: a read of one left moved is a use, reported at the read
        inside the closure. Variables a nested function rebinds (``nonlocal``) may be
        given back by it, and globals by anyone: neither is checked."""
        fn_node = self.scope.node
        if not isinstance(fn_node, FuncItem):
            return
        named: dict[str, list[FuncItem]] | None = None
        for item in escaping_parts(e):
            fns: list[FuncItem] = []
            if isinstance(item, LambdaExpr):
                fns, shown = [item], "a lambda"
            elif isinstance(item, NameExpr) and item.name in self.scope.local_funcs:
                if named is None:
                    named = {}
                    for name, fn in nested_functions(self.scope.body):
                        if name is not None:
                            named.setdefault(name, []).append(fn)
                fns, shown = named.get(item.name, []), f'"{item.name}()"'
            for fn in fns:
                for q, node in sorted(free_read_sites(fn).items()):
                    if root_name(q) not in self.own_variables(fn_node):
                        continue
                    for key in path_prefixes(q):
                        atoms = st.vals.get(key)
                        if not atoms or not any(a[0] == "M" for a in atoms):
                            continue
                        rest = q[len(key) + 1 :] if len(q) > len(key) else ""
                        if not (first_attr(rest) in METADATA and self.metadata_ok(atoms)):
                            extra = f"{CLOSURE_READ}{shown} returned at line {ret.line}"
                            self.event("use", node, key, atoms, extra)

    def own_variables(self, fn: FuncItem) -> frozenset[str]:
        """This function's own variables (parameters and names it binds), less those
        it declares global/nonlocal and those a nested function rebinds."""
        if self._own_variables is None:
            bound, declared = bound_and_declared(fn.body)
            mine = set(bound) | {a.variable.name for a in fn.arguments}
            mine -= declared
            for names in self.scope.writes.values():
                mine -= names
            self._own_variables = frozenset(mine)
        return self._own_variables

    def lent_parameter(self, e: Expression) -> int | None:
        """The fact standing for the caller's lend, where ``e`` names a parameter of this
        function declared a Lent handle and never rebound (made once per scope)."""
        fn = self.scope.node
        if not isinstance(e, NameExpr) or not isinstance(fn, FuncItem) or e.name in self.rebound:
            return None
        sig = fn.type
        if not isinstance(sig, CallableType):
            return None
        for arg, t in zip(fn.arguments, sig.arg_types, strict=False):
            if arg.variable.name != e.name or not is_lent_handle(t):
                continue
            key = ("<lent parameter>", e.name)
            fact = self.scope.origin_facts.get(key)
            if fact is None:
                fact = Fact(CallExpr(NameExpr(e.name), [], [], []), LENT_PARAMETER, True)
                fact.line, fact.lend = fn.line, True
                self.scope.add(fact)
                self.scope.origin_facts[key] = fact
            return fact.id
        return None

    def pinned_end(
        self, stmt: WithStmt, handles: tuple[str, ...], st: State, label: str = ""
    ) -> None:
        """An ``nx.pinned``/``nx.mapped`` block ends: a transfer (or mapping) that took
        one of its handles and is still pending in a variable keeps the block from
        ending cleanly (at run time its exit raises UnfinishedTransferError). Transfers
        handed on are not followed (silence)."""
        held = st.vals.get(HELD, frozenset())
        for name in handles:
            for a in sorted(st.vals.get(name, ())):
                if a[0] != "M" or not self.scope.facts[a[1]].producer:
                    continue
                for fid in self.held.carriers(a[1]):  # and the chained ones (held.py)
                    pending = {("P", fid, 0)}
                    if fid in self.returning:
                        pending.add(("E", fid, 0))
                    extra = f"{fid} {name}|{label}"
                    for holder, atoms in sorted(st.vals.items()):
                        if pending & atoms:
                            self.event("pinned-end", stmt, holder, atoms, extra)
                    if ("H", fid, 0) in held:  # added to a container just before the end
                        item, box, _line = self.held.added[fid]
                        atoms = frozenset({("P", fid, 0)} | (held & OWN_SET))
                        self.event("pinned-end", stmt, item or box, atoms, extra)

    def metadata_ok(self, atoms: Atoms) -> bool:
        return all(a[0] != "M" or self.scope.facts[a[1]].handles for a in atoms)

    def call(self, e: CallExpr, st: State) -> State | None:
        callee = e.callee
        fact = self.scope.fact_for(e, self.infer)
        wait_key: str | None = None
        wait_chain: Chain | None = None
        if isinstance(callee, MemberExpr) and callee.name == "wait" and not e.args:
            wait_chain = path_chain(callee.expr)
            if wait_chain is not None:
                k = wait_chain[-1][0]
                atoms = st.vals.get(k)
                if (fact is not None and fact.wait) or (
                    atoms is not None and any(a[0] in TRANSFER_KINDS for a in atoms)
                ):
                    wait_key = k
        if fact is not None:
            self.treated[position_key(e)] = fact.signature()
        elif wait_key is not None:
            self.treated[position_key(e)] = WAIT_SIGNATURE
        cur: State | None
        if wait_key is not None and wait_chain is not None:
            self.read(wait_chain, st, escape=False)
            cur = st
        else:
            cur = self.ex(callee, st)
            if (
                cur is not None
                and self.elems.holders
                and isinstance(callee, MemberExpr)
                and callee.name == "wait"
                and not e.args
                and isinstance(callee.expr, IndexExpr)
                and (wait_chain is None or wait_key is None)
            ):  # ``downs[next(iter(downs))].wait()``, ``self.pending[k].wait()``: some element
                base = path_chain(callee.expr.base)
                if base is not None:
                    self.elems.one_done(base[-1][0], e.line, cur)
        formatting = fact is None and is_formatting(callee)
        for a in e.args:
            if cur is None:
                return None
            chain = path_chain(a) if formatting else None
            if chain is None and formatting and isinstance(a, IndexExpr) and self.elems.active:
                chain = self.elems.unspelled(a, cur)  # ``print(parts[f(i)])``
                if chain is not None:
                    cur = self.ex(a.index, cur)
                    if cur is None:
                        return None
            if chain is not None:
                self.read(chain, cur, escape=False, formatted=True)
                if self.scope.objects is not None:
                    if isinstance(a, MemberExpr):  # ``print(mon.progress)``: its getter runs
                        self.scope.objects.member(self, a, cur)
                    self.formatted(e, a, cur)  # its class's __str__ or __repr__ runs
            else:
                cur = self.ex(a, cur)
        if cur is None:
            return None
        if self.elems.active:  # a marked container passed on, or a method of it called
            self.elems.call(e, fact, cur, self.element_use)
        if self.elems.kept:  # ``ups.pop(0)`` after ``ups[0].wait()``
            self.elems.touched(e, cur)
        if self.stored_any and fact is None and user_call(e) and not self.library_method(e):
            self.hand_on_stored(cur, e.line)  # the program's code runs: it may complete them
        if isinstance(callee, MemberExpr) and callee.name in CONTAINER_ADDS:
            added = e.args[0] if len(e.args) == 1 else None
            if isinstance(added, CallExpr) and callee.name in ELEMENT_ADDS:
                added_class = result_info(added, self.infer)
                if added_class is not None and isinstance(callee.expr, NameExpr):
                    self.element_classes.setdefault(callee.expr.name, added_class)
            for a in e.args:
                if callee.name in ELEMENT_ADDS or callee.name == "insert":
                    self.elems.note_member(callee.expr, a, cur)  # before it escapes
                self.escapes(a, cur, "container", callee.expr)
                self.elems.note_add(callee.expr, a, cur, self.fact_of)
        if fact is not None and isinstance(callee, NameExpr) and callee.name in self.partials:
            # Calling ``p = functools.partial(f, host, ...)`` passes the bound arguments
            # to f: those f consumes move now (reading them first: a second call uses
            # a moved buffer); and so do the call's own arguments that f consumes, which
            # mypy cannot match to f when f is overloaded (``partial(s.download, dev)``
            # called as ``p(into=buf)``).
            made = partial_call(self.partials[callee.name], e, self.infer)
            pred, passed = made if made is not None else (None, [])
            if pred is not None and fact.callee == "partial.__call__":
                fact.callee = pred.callee  # mypy knew no partially applied signature
            own = {id(a) for a in e.args}
            for idx in pred.consumed if pred is not None else ():
                chain = path_chain(passed[idx]) if idx < len(passed) else None
                if chain is not None and cur is not None:
                    if id(passed[idx]) not in own:  # bound: read here (the call's: read)
                        self.read([(k, e) for k, _ in chain], cur)  # reported at this call
                    self.moved.setdefault(fact.id, [])
                    if chain[-1][0] not in self.moved[fact.id]:
                        self.moved[fact.id].append(chain[-1][0])
                    self.invalidate(chain[-1][0], frozenset({("M", fact.id, 0)}), cur)
        if isinstance(callee, MemberExpr) and callee.name in BORROW_METHODS:
            chain = path_chain(callee.expr)
            if chain is None and self.borrowing():  # ``tables.pop(key).free()``
                chain = _taken_element(callee.expr)
            if chain is not None:
                self.borrow_conflict(callee, chain[-1][0], f"{callee.name}()", -1)
        if isinstance(callee, MemberExpr) and callee.name == "launch" and self.borrowing():
            self.launch_conflicts(e, callee)
        if fact is not None:
            for idx in fact.consumed:
                if idx < len(e.args):
                    arg = e.args[idx]
                    if isinstance(arg, (NameExpr, MemberExpr, IndexExpr)):
                        chain = path_chain(arg)
                        if chain is not None:
                            self.borrow_conflict(arg, chain[-1][0], "move", fact.id)
                    # A list or tuple display consumes each of its items (nx.join([a, b])).
                    items = arg.items if isinstance(arg, (ListExpr, TupleExpr)) else [arg]
                    for item in items:
                        chain = path_chain(item)
                        if chain is not None:
                            key = chain[-1][0]
                            if fact.producer and key in cur.vals:  # ``into=up`` (held.py)
                                self.held.chain(fact, cur.vals[key])
                            self.moved.setdefault(fact.id, [])
                            if key not in self.moved[fact.id]:
                                self.moved[fact.id].append(key)
                            self.invalidate(key, frozenset({("M", fact.id, 0)}), cur)
        if isinstance(callee, MemberExpr):
            if callee.name in STREAM_OPS and self.closed_use(e, callee, cur):
                return None  # closed on every path: the call raises StreamClosedError
            self.on_stream(e, callee, fact, cur)
            if callee.name == "callback" and e.args:
                self.stack_close(e, callee)
        elif isinstance(callee, NameExpr) and callee.fullname == "builtins.next" and e.args:
            self.suspend(e)
        local = isinstance(callee, NameExpr) and callee.name in self.scope.local_funcs
        if local and isinstance(callee, NameExpr):
            # A local function reads what it reads before it does anything to it
            # (so before the effects below: a move it makes is not a use of its own).
            for q in sorted(self.scope.local_funcs[callee.name]):
                self.read_free(q, e, cur, callee.name)
        if self.scope.objects is not None and (
            e.args or isinstance(callee, (MemberExpr, NameExpr, SuperExpr)) or local
        ):
            # ``obj.method()``, ``f(obj)``: what they do to ``obj``'s attributes, and
            # what a function does to its arguments and to the variables it reads
            # (``classes.py``, ``inputs.py``); ``f()``: to its module's globals
            # (``module_globals.py``).
            self.scope.objects.call(self, e, cur)
        if isinstance(callee, NameExpr) and callee.name in self.scope.writes:
            for q in sorted(self.scope.writes[callee.name]):
                self.rebind(q, cur, e)
        if wait_key is not None:
            self.complete(e, wait_key, cur)
        if fact is not None and fact.noreturn:
            return None
        return cur

    def guarded_element_wait(self, node: Expression, key: str, atoms: Atoms) -> bool:
        """``job.transfer.wait()`` (or a call completing it), ``job`` a loop variable
        whose ``transfer`` an earlier loop completed in some elements (elements.py), under
        a test reading another attribute of ``job`` (``if job.result is None:``): the
        object's own fields say which ones are still pending, a protocol the checker does
        not follow (silence, as for summaries: guards.py)."""
        lines = {a[2] for a in atoms if a[0] == "W"}
        if not lines or not all(x in self.elems.wait_loops for x in lines):
            return False
        root, _, rest = key.partition(".")
        fn = self.scope.node
        if (
            not rest
            or "." in rest
            or root not in self.elems.targets
            or not isinstance(fn, FuncItem)
        ):
            return False
        return Guards(fn, root).covers(node, rest)

    def closed_before(self, node: Expression, key: str, st: State) -> None:
        """``obj.t.wait()`` where ``obj.t`` still holds what it held at entry, after
        ``obj.s.close()`` on this path, ``obj``'s class keeping in ``t`` transfers it
        starts on ``s``: the close came while ``t`` may hold a pending transfer on the
        stream (at run time close() refuses). Reported at the close."""
        obj, _, attr = key.rpartition(".")
        if not obj or "." in attr or "[" in attr or "\0" in attr:
            return
        if key in self.rebound or key in self.aliased or key in self.completion_tested:
            return  # it may hold another transfer by now, or one completed already
        target: object = None
        if isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr):
            target = node.callee.expr  # ``obj.t.wait()``
        elif isinstance(node, AwaitExpr):
            target = node.expr  # ``await obj.t``
        base = target.expr if isinstance(target, MemberExpr) else None
        info = self.receiver(base) if base is not None else None
        if not isinstance(info, TypeInfo):
            return
        for ckey, atoms in sorted(st.vals.items()):
            if not ckey.endswith(CLOSED) or not ckey.startswith(obj + "."):
                continue
            stream = ckey[len(obj) + 1 : -len(CLOSED)]
            if not stream or "." in stream or not keeps_transfers_of(info, attr, stream):
                continue
            for a in atoms:
                if a[0] == "C":
                    close = self.close_nodes[a[1]]
                    extra = f"{display_path(obj + '.' + stream)} {node.line}"
                    self.event("close-before-wait", close, key, frozenset(), extra)

    def mark_closed(self, path: str, node: CallExpr, st: State, label: str = "") -> None:
        """The stream at ``path`` is closed at ``node`` (``label``: by that function)."""
        ckey = path + CLOSED
        self.compound_keys.add(ckey)
        idx = next((i for i, c in enumerate(self.close_nodes) if c is node), None)
        if idx is None:
            idx = len(self.close_nodes)
            self.close_nodes.append(node)
            if label:
                self.close_labels[idx] = label
        st.put(ckey, frozenset({("C", idx, 0)}))

    def refusal_expected(self) -> bool:
        """Is this point inside a ``try`` (or a ``with pytest.raises(...)``) that
        catches ``nx.StreamClosedError``?"""
        return any(c.kind == "try" and c.catches_closed for c in self.stack)

    def closed_use(self, e: CallExpr, callee: MemberExpr, st: State) -> bool:
        """``s.upload(...)`` (any of ``STREAM_OPS``) where ``s`` was closed on some path
        to here: the stream refuses it (StreamClosedError). True where it was closed
        on every path: the call always raises (nothing after it runs)."""
        chain = path_chain(callee.expr)
        atoms = st.vals.get(chain[-1][0] + CLOSED) if chain is not None else None
        if chain is None or not atoms or not any(a[0] == "C" for a in atoms):
            return False
        info = self.receiver(callee.expr)
        if not isinstance(info, TypeInfo) or info.fullname != STREAM:
            return False
        if not self.refusal_expected():  # (``except nx.StreamClosedError:``: on purpose)
            self.event("closed-use", e, chain[-1][0], atoms, f"{callee.name}()")
        return all(a[0] == "C" for a in atoms)

    def on_stream(self, e: CallExpr, callee: MemberExpr, fact: Fact | None, st: State) -> None:
        """The transfers started on a stream, and ``Stream.close()`` while one of them
        is pending (at run time close() refuses: StreamClosedError). The stream is the
        receiver path (``s``, ``self.s``); the transfers started on the object it holds
        are kept in the state under ``<receiver>.<ISSUED>``, so that rebinding the
        receiver forgets them (another stream). A transfer handed on is not followed."""
        starts = fact is not None and fact.producer and not fact.mapping
        if not starts and (callee.name != "close" or e.args):
            return
        chain = path_chain(callee.expr)
        if chain is None:
            return
        key = chain[-1][0] + ISSUED
        if fact is not None and starts:
            self.compound_keys.add(key)
            st.put(key, st.vals.get(key, frozenset()) | {("S", fact.id, 0)})
            return
        issued = st.vals.get(key)
        info = self.receiver(callee.expr)
        if not isinstance(info, TypeInfo) or info.fullname != STREAM:
            return
        # The stream is closed on this path: a later use of it is refused (and so is a
        # later ``self.pending.wait()`` of a transfer started on it, ``closed_before``).
        # Not inside its own lend block: close() is refused there (owner-borrowed).
        if not any(o == chain[-1][0] for c in self.stack for o, *_ in c.borrows):
            self.mark_closed(chain[-1][0], e, st)
        if not issued:
            return
        started = {a[1] for a in issued if a[0] == "S"}
        for holder, atoms in sorted(st.vals.items()):
            pending = {a[1] for a in atoms if a[0] == "P"} & started
            if pending:
                extra = f"{min(pending)} {display_path(chain[-1][0])}"
                self.event("close-pending", e, holder, atoms, extra)

    def formatted(self, call: CallExpr, arg: Expression, st: State) -> None:
        """``arg`` (a path) is formatted by ``call`` (``print``, ``str``, ``repr``, an
        f-string): where its class is one of the program's that defines ``__str__`` or
        ``__repr__``, that method runs on it here (``repr()`` and ``!r`` ask for
        ``__repr__``; the others for ``__str__``, which ``object`` makes ``__repr__``)."""
        info = self.receiver(arg)
        if not isinstance(info, TypeInfo) or in_library(info.module_name):
            return
        method = "__repr__" if wants_repr(call, arg) else "__str__"
        own = [b for b in info.mro[:-1] if method in b.names or "__repr__" in b.names]
        if not own:
            return
        if method not in own[0].names:
            method = "__repr__"  # object.__str__ calls __repr__
        if self.scope.objects is not None:
            self.scope.objects.run_method(self, call, arg, info, method, st)

    def borrowing(self) -> bool:
        """Is some lend or write() block open here?"""
        return any(ctx.borrows for ctx in self.stack)

    def launch_conflicts(self, e: CallExpr, callee: MemberExpr) -> None:
        """``s.launch(kernel, grid, block, x, ...)`` inside ``with x.lend()``: a plain
        numba kernel may write every device array it is given, so launch() refuses a
        lent owner (BorrowError); an ``nx.kernel`` with declared intents is left alone
        (its ``reads`` may be lent)."""
        info = _receiver_info(callee.expr, self.infer)
        if not isinstance(info, TypeInfo) or info.fullname != STREAM or len(e.args) < 4:
            return
        if any(k != ARG_POS for k in e.arg_kinds):
            return
        kernel = e.args[0]
        node = kernel.node if isinstance(kernel, RefExpr) else None
        if isinstance(node, Var):
            kp = get_proper_type(node.type) if node.type is not None else None
            if not isinstance(kp, Instance) or kp.type.fullname.startswith("numbaxfer."):
                return  # an nx.kernel (or a type not known: silence)
        elif isinstance(node, Decorator):
            decorators = getattr(node, "original_decorators", None)
            if decorators is None:
                return  # (from mypy's cache: its decorators are not known)
            for d in decorators:
                f = d.callee if isinstance(d, CallExpr) else d
                if not isinstance(f, RefExpr) or in_library(f.fullname or ""):
                    return  # ``@nx.kernel(reads=...)`` (or not known): its intents decide
        elif not isinstance(node, FuncDef):
            return  # a ``@cuda.jit`` function is a plain numba kernel; others: silence
        for i, arg in enumerate(e.args[3:]):
            chain = path_chain(arg)
            if chain is not None:
                self.borrow_conflict(arg, chain[-1][0], f"launch#{i}", -1)

    def borrow_conflict(self, node: Expression, key: str, op: str, fact_id: int) -> None:
        """``op`` (a move by fact ``fact_id``, or a method such as ``write()``, with
        ``@f`` where the function ``f`` called here calls it) on ``key`` inside a block
        that lends it or has its write() view open: rule 3 refuses it."""
        borrows = [b[:3] for ctx in self.stack for b in ctx.borrows]
        borrows += [
            (owner, kind, line)
            for owner, kind, line, first, last in self.suspended
            if first < node.line <= last
        ]
        for owner, kind, line in borrows:
            if owner != key:
                continue
            method = op != "move" and not op.startswith("launch#")
            if method and op.partition("@")[0][:-2] not in BORROW_BREAKERS[kind]:
                continue
            atoms = frozenset({("B", fact_id, line)})
            self.event("borrowed", node, key, atoms, f"{op} {kind}")

    def element_use(self, node: Expression, container: str, atoms: Atoms, callee: str) -> None:
        """The elements of ``container`` (which may be moved) are handed to ``callee``."""
        self.event("use", node, container, atoms, "elements|" + callee)

    def complete(self, node: Expression, key: str, st: State) -> None:
        """``key.wait()`` or ``await key``: the transfer at ``key`` is completed here."""
        atoms = st.get(key)
        if self.elems.active and key.endswith("]"):  # ``ups[0].wait()`` (elements.py)
            atoms = self.elems.element_of(key, st) or atoms
        elif self.elems.active and (split := element_attr_of(key)) is not None:
            # ``jobs[0].transfer.wait()`` after a loop completed every ``job.transfer``
            mark = st.vals.get(mark_of(split[0]) + split[1])
            if mark is not None:
                atoms = mark if key not in st.vals else atoms | mark
        if completed_before(atoms) and not self.guarded_element_wait(node, key, atoms):
            self.event("twice", node, key, atoms)
        if "." in key or "[" in key:
            self.compound_keys.add(key)
        pids = {a[1] for a in atoms if a[0] in TRANSFER_KINDS}
        self.completed.update(pids)
        self.completed_keys.add(key)
        if self.elems.kept:  # ``pending.append(t)`` earlier
            self.elems.member_done(key, pids, node.line, st)
        if key.endswith("]") and self.elems.holders:
            container = container_of(key)
            if container is not None:
                self.elems.one_done(container, node.line, st)
        if self.close_nodes and key not in st.vals:
            self.closed_before(node, key, st)
        for pid in pids & self.read_marks:  # reads of its buffer made before, on this path
            for moved in self.moved.get(pid, []):
                for a in st.vals.get(moved + READS, ()):
                    read = self.read_nodes[a[2]] if a[0] == "R" and a[1] == pid else None
                    body = self.scope.node.body if isinstance(self.scope.node, FuncItem) else None
                    # in the block of the take-back (``if not self.busy: read`` and ``if
                    # self.busy: take back`` are the object's own protocol: silence)
                    if read is not None and body is not None and same_block(body, read, node):
                        self.early_reads.setdefault(pid, []).append(read)
        into = [t for waits, t in self.wait_target or () if any(x is node for x in waits)]
        for pid in pids:
            # Completed into the moved buffer (``host = up.wait()``), or the buffer may
            # stay moved after the transfer is gone.
            if not any(t in self.moved.get(pid, []) for t in into):
                self.unpaired.add(pid)
        st.put(
            key,
            frozenset(("W", pid, node.line) for pid in pids) or frozenset({("W", -1, node.line)}),
        )
        maps = sorted(pid for pid in pids if pid >= 0 and self.scope.facts[pid].mapping)
        if maps:
            # The Mapping's device view ends with it (and so does every alias of it).
            self.invalidate(f"{key}.device", frozenset(("G", pid, node.line) for pid in maps), st)

    def await_(self, e: AwaitExpr, st: State) -> State | None:
        """``await t`` completes a transfer as ``t.wait()`` does (Transfer.__await__
        waits and returns the array), so it is not a hand-on."""
        chain = path_chain(e.expr)
        if chain is not None:
            key = chain[-1][0]
            atoms = st.vals.get(key)
            held = atoms is not None and any(a[0] in TRANSFER_KINDS for a in atoms)
            if held or is_transfer(static_type(e.expr)):
                self.read(chain, st, escape=False)
                self.complete(e, key, st)
                return st
        through = awaited_through(e.expr) if isinstance(e.expr, CallExpr) else None
        if isinstance(e.expr, CallExpr) and through is not None:
            # ``await asyncio.wait_for(t, 5)`` (shield, gather): completes ``t`` like
            # ``await t`` once the call's arguments are evaluated; if it raises (a
            # timeout), the handlers see ``t`` still pending, as at run time.
            cur: State | None = self.ex(e.expr.callee, st)
            done: list[str] = []
            for arg in e.expr.args:
                if cur is None:
                    return None
                chain = path_chain(arg) if any(arg is x for x in through) else None
                atoms = cur.vals.get(chain[-1][0]) if chain is not None else None
                if chain is not None and (
                    (atoms is not None and any(a[0] in TRANSFER_KINDS for a in atoms))
                    or is_transfer(static_type(arg))
                ):
                    self.read(chain, cur, escape=False)
                    if chain[-1][0] not in done:
                        done.append(chain[-1][0])
                else:
                    cur = self.ex(arg, cur)
            for key in done if cur is not None else ():
                assert cur is not None
                self.complete(e, key, cur)
            return cur
        return self.ex(e.expr, st)

    def read_free(self, q: str, call: Expression, st: State, fname: str) -> None:
        for key in path_prefixes(q):
            atoms = st.vals.get(key)
            if atoms is not None and any(a[0] in "MXGU" for a in atoms):
                rest = q[len(key) + 1 :] if len(q) > len(key) else ""
                if not (first_attr(rest) in METADATA and self.metadata_ok(atoms)):
                    self.event("use", call, key, atoms, fname)
            if atoms is not None and key == q and any(a[0] == "P" for a in atoms):
                st.put(key, frozenset(("E", a[1], 0) if a[0] == "P" else a for a in atoms))

    def invalidate(self, key: str, atoms: Atoms, st: State) -> None:
        """Move (or expire) ``key`` and whatever may be the same object."""
        if "." in key or "[" in key:
            self.compound_keys.add(key)
        st.put(key, atoms)
        group: dict[str, bool] = {}
        for t, must in st.alias.get(key, {}).items():
            group[t] = must
        for name, targets in st.alias.items():
            if key in targets:
                group[name] = targets[key]
        for t, must in list(group.items()):
            for name, targets in st.alias.items():
                # Two names that each *may* be ``t`` may be so on different paths (a
                # loop's ``w.stream`` was ``s`` before it ran, ``ls`` after): not the
                # same object as far as is known (silence)
                if t in targets and name != key and name not in group and (must or targets[t]):
                    group[name] = must and targets[t]
        for other, must in group.items():
            if other == key:
                continue
            if "." in other or "[" in other:
                self.compound_keys.add(other)
            st.put(other, atoms if must else st.get(other) | atoms)
