"""Reads guarded by a test on the same object: where a summary's read of ``p.x`` is not
a use at the call.

``def describe(slot): return "-" if slot.state is UPLOADING else slot.host.read()``
reads ``slot.host`` only when the state field of the same object says it is not moved:
the object's own fields tell the helper which of its buffers it may touch, a protocol
the checker does not follow. Applying that read at every call (after ``start(slot)``
moved ``slot.host``) would be a false report, so a summary leaves it out (silence).

A read of ``p.x`` (``p`` the parameter or ``self`` a summary follows) is *guarded* when
it lies in a part of the body that runs only after a test reading another attribute of
``p`` (``p.state``, ``p.ready``, ``p.pending is None``, ``p.busy()``) or passing ``p`` to
a call (``is_ready(p)``):

* the branches of an ``if``/``elif`` or of a conditional expression on such a test, the
  cases of a ``match`` on it, the right operand of ``and``/``or`` after it;
* the rest of the block after ``assert <test>``, or after ``if <test>:`` whose body
  ends the block (``return``, ``raise``, ``continue``, ``break``).

A test that does not read the object (``if debug: print(p.host.read())``), or reads only
the attribute that is read (``if p.host.size:``), guards nothing: the read stays a use.
One walk over the body, made only for a summary that has reads to check.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import (
    AssertStmt,
    AssignmentStmt,
    Block,
    BreakStmt,
    CallExpr,
    ComparisonExpr,
    ConditionalExpr,
    Context,
    ContinueStmt,
    Expression,
    FuncItem,
    IfStmt,
    MatchStmt,
    MemberExpr,
    NameExpr,
    Node,
    OpExpr,
    RaiseStmt,
    ReturnStmt,
    Statement,
)

from .paths import path_chain
from .syntax import child_nodes, stored_targets

Pos = tuple[int, int]
#: (start, end, attributes of the object the test reads ("*" any), those of them it
#: proves hold something there: ``p.pending is not None``)
Span = tuple[Pos, Pos, frozenset[str], frozenset[str]]

ANY = "*"
COMPLETED = ".completed"
_EXITS = (ReturnStmt, RaiseStmt, ContinueStmt, BreakStmt)


def _start(n: Node) -> Pos:
    return (n.line, n.column)


def _end(n: Node) -> Pos | None:
    if n.end_line is None or n.end_column is None:
        return None
    return (n.end_line, n.end_column)


def _walk(e: Node) -> Iterator[Node]:
    todo = [e]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(child_nodes(n))


def tested(test: Expression, me: str) -> frozenset[str]:
    """The attributes of ``me`` a test reads (``ANY``: it passes ``me`` to a call), and
    ``h.completed`` for a test of that property of the transfer in ``me.h``."""
    out: set[str] = set()
    for n in _walk(test):
        if isinstance(n, MemberExpr):
            chain = path_chain(n)
            if chain is not None and len(chain) >= 2 and chain[0][0] == me:
                attr = chain[1][0][len(me) + 1 :]
                out.add(attr)
                if len(chain) == 3 and n.name == "completed":
                    out.add(attr + COMPLETED)
        elif isinstance(n, CallExpr) and any(
            isinstance(a, NameExpr) and a.name == me for a in n.args
        ):
            out.add(ANY)
    return frozenset(out)


def held(test: Expression, me: str, value: bool) -> frozenset[str]:
    """The attribute ``h`` of ``me`` that ``test`` proves is not None where it is
    ``value``: ``me.h is not None`` or ``me.h`` (True), ``me.h is None`` (False)."""
    positive = value
    if isinstance(test, ComparisonExpr) and len(test.operators) == 1:
        op = test.operators[0]
        left, right = test.operands
        none = isinstance(right, NameExpr) and right.fullname == "builtins.None"
        if op in ("is", "is not") and none:
            positive = value if op == "is not" else not value
            test = left
        else:
            return frozenset()
    if not positive or not isinstance(test, MemberExpr):
        return frozenset()
    chain = path_chain(test)
    if chain is None or len(chain) != 2 or chain[0][0] != me:
        return frozenset()
    return frozenset({test.name})


class Guards:
    """The guarded parts of one function body, for the object named ``me``."""

    __slots__ = ("_spans",)

    def __init__(self, fn: FuncItem, me: str) -> None:
        self._spans: list[Span] = []
        self._block(fn.body.body, me)
        todo: list[Node] = list(fn.body.body)
        while todo:
            n = todo.pop()
            if isinstance(n, IfStmt):
                for cond, body in zip(n.expr, n.body, strict=False):
                    attrs = tested(cond, me)
                    self._add(body, attrs, held(cond, me, True))
                    if attrs and n.else_body is not None:
                        one = len(n.expr) == 1
                        self._add(n.else_body, attrs, held(cond, me, False) if one else None)
            elif isinstance(n, ConditionalExpr):
                attrs = tested(n.cond, me)
                self._add(n.if_expr, attrs)
                self._add(n.else_expr, attrs)
            elif isinstance(n, OpExpr) and n.op in ("and", "or"):
                self._add(n.right, tested(n.left, me))
            elif isinstance(n, MatchStmt):
                attrs = tested(n.subject, me)
                for b in n.bodies:
                    self._add(b, attrs)
            if isinstance(n, Block):
                self._block(n.body, me)
            todo.extend(child_nodes(n))
            if isinstance(n, MatchStmt):
                todo.extend(n.bodies)

    def _block(self, body: list[Statement], me: str) -> None:
        """``assert <test>`` / ``if <test>: return`` guard the rest of the block."""
        for i, s in enumerate(body[:-1]):
            attrs: frozenset[str] = frozenset()
            proved: frozenset[str] = frozenset()
            if isinstance(s, AssertStmt):
                attrs = tested(s.expr, me)
                proved = held(s.expr, me, True)
            elif (
                isinstance(s, IfStmt)
                and len(s.expr) == 1
                and s.body[0].body
                and isinstance(s.body[0].body[-1], _EXITS)
            ):
                attrs = tested(s.expr[0], me)
                proved = held(s.expr[0], me, False)
            if attrs:
                end = _end(body[-1])
                if end is not None:
                    self._spans.append((_start(body[i + 1]), end, attrs, proved))

    def _add(self, n: Node, attrs: frozenset[str], proved: frozenset[str] | None = None) -> None:
        end = _end(n)
        if isinstance(n, Block) and n.body:
            end = _end(n.body[-1])
            start = _start(n.body[0])
        else:
            start = _start(n)
        if attrs and end is not None:
            self._spans.append((start, end, attrs, proved or frozenset()))

    def covers(self, node: Context, attr: str, holder: str = "") -> bool:
        """Is the read of ``me.attr`` at ``node`` guarded by a test on another attribute
        of ``me``? Not by a test that only proves ``me.<holder>`` (the attribute that
        holds ``attr``'s transfer where it is moved) holds something: under ``assert
        self.mapping is not None`` the array is in the mapping's hands."""
        pos = (node.line, node.column)
        first = attr.split(".", 1)[0].split("[", 1)[0]
        for start, end, attrs, proved in self._spans:
            if not start <= pos <= end:
                continue
            others = {a for a in attrs if "." not in a} - {first}
            if holder and others == {holder} and holder in proved:
                continue
            if ANY in attrs or others:
                return True
        return False

    def wait_guarded(self, node: Context, holder: str, flags: frozenset[str]) -> bool:
        """Is the ``wait()`` at ``node`` of the transfer in ``me.<holder>`` guarded so
        that a second call of the method does not complete it again: by a test of
        ``me.<holder>.completed``, or of an attribute of ``me`` among ``flags`` (those
        the method assigns: ``if not self.back: ... self.back = True``)?"""
        pos = (node.line, node.column)
        for start, end, attrs, _proved in self._spans:
            if not start <= pos <= end:
                continue
            if holder + COMPLETED in attrs or any(a in flags and a != holder for a in attrs):
                return True
        return False


def wait_calls(fn: FuncItem, me: str, holder: str) -> list[CallExpr]:
    """The ``me.<holder>.wait()`` calls in ``fn``'s own body (not a nested function's)."""
    out: list[CallExpr] = []
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, FuncItem):
            continue
        if (
            isinstance(n, CallExpr)
            and isinstance(n.callee, MemberExpr)
            and n.callee.name == "wait"
            and not n.args
        ):
            chain = path_chain(n.callee.expr)
            if chain is not None and chain[-1][0] == f"{me}.{holder}":
                out.append(n)
        todo.extend(child_nodes(n))
    return out


def assigned_attrs(fn: FuncItem, me: str) -> frozenset[str]:
    """The attributes of ``me`` that ``fn``'s own body assigns (``me.x = ...``)."""
    out: set[str] = set()
    todo: list[Node] = list(fn.body.body)
    while todo:
        n = todo.pop()
        if isinstance(n, FuncItem):
            continue
        rv = n.rvalue if isinstance(n, AssignmentStmt) else None
        if (
            isinstance(rv, CallExpr)
            and isinstance(rv.callee, MemberExpr)
            and rv.callee.name == "wait"
        ):
            pass  # ``self.host = self.pending.wait()``: the buffer, not a flag
        else:
            for lv in stored_targets(n):
                if (
                    isinstance(lv, MemberExpr)
                    and isinstance(lv.expr, NameExpr)
                    and lv.expr.name == me
                ):
                    out.add(lv.name)
        todo.extend(child_nodes(n))
    return frozenset(out)
