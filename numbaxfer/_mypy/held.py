"""Transfers an ``nx.pinned``/``nx.mapped`` block ends under although no variable holds
them any more: one added to a container (``pending.append(down)``, ``pending[k] =
down``, ``ups = [s.upload(h, to=d), ...]``, a dict display) as the last thing the block
does, and one carried on by a chained transfer (``down = s.download(dev, into=up)`` carries ``up``'s
handle).

A transfer added to a container is handed on (``flow``: an ``E`` atom), and whoever has
the container may complete it. Here it is followed only while no code can have run
since the add: the state holds its fact as an ``H`` atom at the path ``HELD`` from the
end of the statement that added it to the start of the next statement (any statement,
a loop's next iteration or its exit, the exit of a ``with`` block). So an add that is
the last statement of the block, on some path (``with nx.pinned(a) as h: ...;
pending.append(down)``), leaves the transfer pending when the block ends, as at run time
(its exit raises ``UnfinishedTransferError``); one followed by anything at all (a call,
a ``wait()`` of the container's elements, an assignment) is silence."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    DictExpr,
    Expression,
    ExpressionStmt,
    IndexExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    Statement,
    TupleExpr,
)

from .blocks import CONTAINER_ADDS
from .facts import Fact
from .paths import display_path, path_chain
from .state import Atoms, State

#: The state path of the transfers just added to a container (no code names it).
HELD: Final = "<held>"


class Held:
    """The part of one ``flow.Analysis`` that follows these transfers."""

    __slots__ = ("added", "carried")

    def __init__(self) -> None:
        #: transfer fact id -> (the path it was added from, the container, the line)
        self.added: dict[int, tuple[str, str, int]] = {}
        #: transfer fact id -> the chained transfers that consumed it (carry its handle)
        self.carried: dict[int, set[int]] = {}

    def adds(
        self, s: Statement, st: State, fact_of: Callable[[CallExpr], Fact | None]
    ) -> list[int] | None:
        """The pending transfers the statement ``s`` adds to a container, known before it
        runs (``pending.append(down)`` reads ``down`` and hands it on); None if it adds
        none. Called only inside an ``nx.pinned``/``nx.mapped`` block."""
        container: Expression | None = None
        items: list[Expression] = []
        if isinstance(s, ExpressionStmt) and isinstance(s.expr, CallExpr):
            callee = s.expr.callee
            if isinstance(callee, MemberExpr) and callee.name in CONTAINER_ADDS:
                container = callee.expr
                for arg in s.expr.args:
                    items.extend(arg.items if isinstance(arg, (ListExpr, TupleExpr)) else [arg])
        elif isinstance(s, AssignmentStmt) and len(s.lvalues) == 1:
            lv = s.lvalues[0]
            if isinstance(lv, IndexExpr):
                container, items = lv.base, [s.rvalue]
            elif isinstance(lv, NameExpr) and isinstance(s.rvalue, (ListExpr, TupleExpr)):
                container, items = lv, list(s.rvalue.items)  # ``ups = [s.upload(h, ...)]``
            elif isinstance(lv, NameExpr) and isinstance(s.rvalue, DictExpr):
                container, items = lv, [v for _, v in s.rvalue.items]  # ``{"a": ...}``
        box = path_chain(container) if container is not None else None
        if box is None:
            return None
        out: list[int] = []
        for item in items:
            if isinstance(item, CallExpr):
                f = fact_of(item)
                if f is not None and f.producer:
                    out.append(f.id)
                    self.added.setdefault(f.id, ("", display_path(box[-1][0]), s.line))
                continue
            chain = path_chain(item)
            if chain is None:
                continue
            for a in sorted(st.get(chain[-1][0])):
                if a[0] == "P":
                    out.append(a[1])
                    shown = (display_path(chain[-1][0]), display_path(box[-1][0]), s.line)
                    self.added.setdefault(a[1], shown)
        return out or None

    def hold(self, fids: list[int], st: State) -> None:
        """The statement that added ``fids`` to a container has ended in ``st``."""
        st.put(HELD, frozenset(("H", f, 0) for f in fids))

    def chain(self, fact: Fact, atoms: Atoms) -> None:
        """``fact`` (a call returning a transfer) consumed a path holding ``atoms``:
        the transfers there are carried on by its result."""
        for a in atoms:
            if a[0] in "PE" and a[1] >= 0 and a[1] != fact.id:
                self.carried.setdefault(a[1], set()).add(fact.id)

    def carriers(self, fid: int) -> list[int]:
        """``fid`` and the chained transfers that carry its handle on, transitively."""
        out = [fid]
        i = 0
        while i < len(out) and len(out) < 16:
            for nxt in sorted(self.carried.get(out[i], ())):
                if nxt not in out:
                    out.append(nxt)
            i += 1
        return out


def clear(st: State) -> None:
    """Code may run from here on: a transfer added to a container may be completed."""
    if HELD in st.vals:
        del st.vals[HELD]
