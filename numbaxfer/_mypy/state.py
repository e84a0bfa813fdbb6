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
#      not reported, but nothing completed it: ``completed`` is False on that path)
#   W  transfer completed (extra: line of the wait)
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
Chain: TypeAlias = list[tuple[str, Expression]]
PosKey: TypeAlias = tuple[int, int, int, int]
Message: TypeAlias = "tuple[ErrorCode, Context, str, tuple[object, ...]]"


class State:
    """Abstract state at one program point (mutable; copy before branching)."""

    __slots__ = ("alias", "vals")

    def __init__(
        self,
        vals: dict[str, Atoms] | None = None,
        alias: dict[str, dict[str, bool]] | None = None,
    ) -> None:
        self.vals: dict[str, Atoms] = vals if vals is not None else {}
        #: name -> {path it was copied from: True if on every path}
        self.alias: dict[str, dict[str, bool]] = alias if alias is not None else {}

    def copy(self) -> State:
        return State(dict(self.vals), {k: dict(v) for k, v in self.alias.items()})

    def get(self, key: str) -> Atoms:
        return self.vals.get(key, OWN_SET)

    def put(self, key: str, atoms: Atoms) -> None:
        if atoms == OWN_SET:
            self.vals.pop(key, None)
        else:
            self.vals[key] = atoms

    def same(self, other: State) -> bool:
        return self.vals == other.vals and self.alias == other.alias


def join_states(*states: State | None) -> State | None:
    live = [s for s in states if s is not None]
    if not live:
        return None
    if len(live) == 1:
        return live[0].copy()
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
    return State(vals, alias)
