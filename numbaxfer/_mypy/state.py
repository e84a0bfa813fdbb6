"""Abstract values of the data-flow analysis: what a path may hold at one point."""

from __future__ import annotations

from typing import Final, TypeAlias

from mypy.errorcodes import ErrorCode
from mypy.nodes import (
    Context,
    Expression,
)

# --------------------------------------------------------------------------------------
# Abstract values
#
# The state maps a *path* (``host``, ``self.buf``, ``bufs[0]``, ``bufs[$i]``) to a set of
# atoms, one per way the value may have arrived here; a path that is absent holds
# ``{OWN}``: usable. Atoms are (kind, fact id, extra):
#   O  usable                          M  moved by fact
#   P  pending transfer from fact      E  transfer handed on (escaped: not ours to check)
#      (extra EXC_PENDING: pending where an exception was raised; its leak there is
#      not reported, but nothing completed it: ``completed`` is False on that path;
#      extra STORED: stored into an attribute here, see ``STORED``)
#   W  transfer completed (extra: line of the wait; negative: completed before a
#      statement only numbaxfer or numpy code can make fail, on the path of that
#      failure: not reported as completed twice there, ``completed_before``)
#   X  lent handle whose block ended (fact: the lend call)
#   U  handle of an ``nx.pinned``/``nx.mapped`` block that ended (not a fact: the line
#      of the pin, extra: the line the block ends)
#   N  the value a parameter had at entry (summaries only, ``inputs.py``; fact: a
#      sentinel standing for the parameter): inert, copied along with the value
# --------------------------------------------------------------------------------------

Atom: TypeAlias = tuple[str, int, int]
Atoms: TypeAlias = frozenset[Atom]
OWN: Final[Atom] = ("O", -1, 0)
OWN_SET: Final[Atoms] = frozenset({OWN})
TRANSFER_KINDS: Final = frozenset({"P", "W", "E"})
#: The extra of an E atom that stands for a transfer pending on an exceptional path.
EXC_PENDING: Final = 1
#: The extra of an E atom that stands for a transfer this scope stored into an attribute
#: (``mon.pending = s.download(...)``): the object's now, but overwriting the attribute
#: before other code ran drops it. Any call of the program's code, ``yield``, ``await``
#: or a read handing it on makes it a plain hand-on (extra 0).
STORED: Final = 2


def completed_before(atoms: Atoms) -> bool:
    """Do ``atoms`` say the transfer was completed already, on a path a second
    completion is reported on?"""
    return any(a[0] == "W" and a[2] >= 0 for a in atoms)


Chain: TypeAlias = list[tuple[str, Expression]]
PosKey: TypeAlias = tuple[int, int, int, int]
Message: TypeAlias = "tuple[ErrorCode, Context, str, tuple[object, ...]]"


#: The most paths a state keeps apart by their flags (then they are joined).
MAX_PARTS: Final = 8
_NO_FLAGS: Final[dict[str, frozenset[int]]] = {}


class State:
    """Abstract state at one program point (mutable; copy before branching).

    ``flags`` maps a flag (``flags.py``) to the constants it may hold here (absent: any
    of them). A join of states whose flags differ is a ``Split``."""

    __slots__ = ("alias", "flags", "vals")

    def __init__(
        self,
        vals: dict[str, Atoms] | None = None,
        alias: dict[str, dict[str, bool]] | None = None,
        flags: dict[str, frozenset[int]] | None = None,
    ) -> None:
        self.vals: dict[str, Atoms] = vals if vals is not None else {}
        #: name -> {path it was copied from: True if on every path}
        self.alias: dict[str, dict[str, bool]] = alias if alias is not None else {}
        #: never changed in place (states share it): replaced (``with_flag``)
        self.flags: dict[str, frozenset[int]] = flags if flags is not None else _NO_FLAGS

    def copy(self) -> State:
        return State(dict(self.vals), {k: dict(v) for k, v in self.alias.items()}, self.flags)

    def with_flag(self, name: str, values: frozenset[int] | None) -> None:
        """``name`` holds one of ``values`` here (None: any of its constants)."""
        if values is None:
            if name in self.flags:
                self.flags = {k: v for k, v in self.flags.items() if k != name}
        elif self.flags.get(name) != values:
            self.flags = {**self.flags, name: values}

    def live_parts(self) -> list[State] | None:
        """The states of the paths this one joins, kept apart by their flags (None: one
        state). Statements run on each of them (``flow.Analysis.stmt``)."""
        return None

    def get(self, key: str) -> Atoms:
        return self.vals.get(key, OWN_SET)

    def put(self, key: str, atoms: Atoms) -> None:
        if atoms == OWN_SET:
            self.vals.pop(key, None)
        else:
            self.vals[key] = atoms

    def same(self, other: State) -> bool:
        mine, theirs = self.live_parts(), other.live_parts()
        if mine is not None and theirs is not None:
            return len(mine) == len(theirs) and all(
                a.same(b) for a, b in zip(mine, theirs, strict=True)
            )
        if mine is not None or theirs is not None:
            return False
        return self.vals == other.vals and self.alias == other.alias and self.flags == other.flags


# The slots of State, for a Split to reach its joined view without collapsing.
_VALS: Final = State.__dict__["vals"]
_ALIAS: Final = State.__dict__["alias"]
_FLAGS: Final = State.__dict__["flags"]


class Split(State):
    """A disjunction: the join of ``parts``, states of paths on which flags differ
    (trace partitioning). The analysis runs each statement on each part. Any other code
    that looks at ``vals``, ``alias`` or ``flags`` sees the join of the parts, and from
    then on the state IS that join (the parts are dropped): code that knows nothing of
    parts may change the join, and parts it did not change would be stale. Sound; only
    less precise."""

    __slots__ = ("_parts",)

    def __init__(self, joined: State, parts: list[State]) -> None:
        _VALS.__set__(self, _VALS.__get__(joined))
        _ALIAS.__set__(self, _ALIAS.__get__(joined))
        _FLAGS.__set__(self, _FLAGS.__get__(joined))
        self._parts: list[State] | None = parts

    @property
    def vals(self) -> dict[str, Atoms]:
        self._parts = None
        return _VALS.__get__(self)  # type: ignore[no-any-return]

    @vals.setter
    def vals(self, v: dict[str, Atoms]) -> None:
        self._parts = None
        _VALS.__set__(self, v)

    @property
    def alias(self) -> dict[str, dict[str, bool]]:
        self._parts = None
        return _ALIAS.__get__(self)  # type: ignore[no-any-return]

    @alias.setter
    def alias(self, v: dict[str, dict[str, bool]]) -> None:
        self._parts = None
        _ALIAS.__set__(self, v)

    @property
    def flags(self) -> dict[str, frozenset[int]]:
        self._parts = None
        return _FLAGS.__get__(self)  # type: ignore[no-any-return]

    @flags.setter
    def flags(self, v: dict[str, frozenset[int]]) -> None:
        self._parts = None
        _FLAGS.__set__(self, v)

    def live_parts(self) -> list[State] | None:
        return self._parts

    def copy(self) -> State:
        parts = self._parts
        if parts is None:
            return super().copy()
        joined = State(
            dict(_VALS.__get__(self)),
            {k: dict(v) for k, v in _ALIAS.__get__(self).items()},
            _FLAGS.__get__(self),
        )
        return Split(joined, [p.copy() for p in parts])


def joined_view(st: State) -> State:
    """``st`` as one state: a Split's parts joined (what code that ignores parts sees)."""
    parts = st.live_parts()
    return _join(parts) if parts is not None else st


def _flag_key(st: State) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple(sorted((k, tuple(sorted(v))) for k, v in st.flags.items()))


def join_states(*states: State | None) -> State | None:
    """The state where paths from each of ``states`` meet: kept apart by their flags
    (at most ``MAX_PARTS`` parts), else one state."""
    live = [s for s in states if s is not None]
    if not live:
        return None
    flat: list[State] = []
    flagged = False
    for s in live:
        parts = s._parts if type(s) is Split else None
        if parts is not None:
            flat.extend(parts)
            flagged = True
        else:
            flat.append(s)
            flagged = flagged or bool(s.flags)
    if not flagged:
        return _join(flat)
    groups: dict[tuple[tuple[str, tuple[int, ...]], ...], list[State]] = {}
    for s in flat:
        groups.setdefault(_flag_key(s), []).append(s)
    if len(groups) == 1:
        return _join(flat)
    parts = [_join(groups[k]) for k in sorted(groups)]
    out = _join(parts)
    return Split(out, parts) if len(parts) <= MAX_PARTS else out


def _join(live: list[State]) -> State:
    """The join of plain states (no parts)."""
    if len(live) == 1:
        s = live[0]
        return State(dict(s.vals), {k: dict(v) for k, v in s.alias.items()}, s.flags)
    keys: set[str] = set()
    names: set[str] = set()
    for s in live:
        keys.update(s.vals)
        names.update(s.alias)
    vals: dict[str, Atoms] = {}
    for k in sorted(keys):
        acc: set[Atom] = set()
        for s in live:
            acc.update(s.vals.get(k, OWN_SET))
        if acc != OWN_SET:
            vals[k] = frozenset(acc)
    alias: dict[str, dict[str, bool]] = {}
    for n in sorted(names):
        targets: set[str] = set()
        for s in live:
            targets.update(s.alias.get(n, {}))
        merged: dict[str, bool] = {}
        for t in sorted(targets):
            merged[t] = all(s.alias.get(n, {}).get(t, False) for s in live)
        alias[n] = merged
    flags: dict[str, frozenset[int]] | None = None
    first = live[0].flags
    if first:
        flags = {}
        for name in first:
            if all(name in s.flags for s in live):
                flags[name] = frozenset().union(*(s.flags[name] for s in live))
    return State(vals, alias, flags)
