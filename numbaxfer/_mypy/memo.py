"""Memoisation by identity: for pure functions of mypy's nodes and types, which a build
never changes once semantic analysis has made them (dmypy makes new ones for an edit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

_N = TypeVar("_N")
_R = TypeVar("_R")
#: Entries per memoised function (then it starts afresh).
MEMO_SIZE: Final = 4096


def by_node(walk: Callable[[_N], _R]) -> Callable[[_N], _R]:
    """``walk`` (a syntactic walk, or a test of a declared type, with an immutable
    result) memoised by the identity of its argument. A function is analysed many times
    (at each claimed call that changes its facts, as a summary, as a nested function of
    its scope) and its syntax does not change meanwhile: mypy's semantic passes fill in
    attributes, not the tree, and dmypy parses an edited file afresh (new nodes); a
    declared signature is one type object per symbol. The entry keeps its argument
    alive, so its id is not reused while the entry exists."""
    memo: dict[int, tuple[_N, _R]] = {}

    def cached(node: _N) -> _R:
        hit = memo.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        out = walk(node)
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[id(node)] = (node, out)
        return out

    cached.__doc__ = walk.__doc__
    cached.__name__ = getattr(walk, "__name__", "cached")
    return cached
