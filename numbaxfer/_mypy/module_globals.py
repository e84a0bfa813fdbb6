"""Module globals across the module's functions: what a call ``f()`` of a module-level
function of the caller's own module reads of, and rebinds in, the module's globals.

``inputs.py`` summarises what a function *moves* of the variables it reads; for a
module-level function those are module globals (``STAGING`` moved by ``start()``). At a
call of such a function from another function of the same module, the caller's
``STAGING`` is the same variable, so (``inputs.Inputs.apply``):

* the globals the callee reads (``checksum()`` reads ``STAGING``) are read at the call;
* its moves of globals move the caller's path;
* the globals it rebinds (``global STAGING; STAGING = PENDING.wait()`` in ``finish()``)
  are rebound at the call, on every path (silence, not a report, where the callee
  rebinds only sometimes).

All three are transitive through the module-level functions of that module it calls by
name (a syntactic closure, so a cycle is no problem). A global is not followed at all
(no move of it is applied) where some code the closure cannot see may rebind it: a
method, a nested or decorated function, or a lambda of the module declaring it
``global``, or a ``del`` of it anywhere. Rebinding from another module
(``mod.STAGING = ...``) is not seen (documented in docs/static-checker.md).

Effects are cached per function full name and position, and the module's unfollowed
globals per module name; both are final within one build (dmypy: recomputed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeGuard

from mypy.nodes import (
    CallExpr,
    ClassDef,
    Decorator,
    DelStmt,
    FakeInfo,
    FuncDef,
    MypyFile,
    NameExpr,
    Node,
    OverloadedFuncDef,
    Var,
)

from .paths import root_name
from .syntax import bound_and_declared, child_nodes, declared_shared, free_reads, sub_blocks

#: Functions followed per closure (more: the closure is not followed, silence).
MAX_CLOSURE: Final = 64


@dataclass(frozen=True)
class GlobalEffects:
    reads: frozenset[str]  # paths of globals read (``STAGING``, ``CFG.buf``)
    writes: frozenset[str]  # names of globals rebound


def module_of(fn: FuncDef) -> str:
    """The module of a module-level function (``pkg.mod.f`` -> ``pkg.mod``)."""
    return fn.fullname.rpartition(".")[0]


def is_module_function(fn: Node | None) -> TypeGuard[FuncDef]:
    """A plain ``def`` at a module's top level, with its body (not from mypy's cache)."""
    return (
        isinstance(fn, FuncDef)
        and isinstance(fn.info, FakeInfo)
        and "." in fn.fullname
        and getattr(fn, "body", None) is not None
        and getattr(fn, "arguments", None) is not None
        and not (fn.is_generator or fn.is_coroutine or fn.is_async_generator)
    )


def _peers(fn: FuncDef) -> list[FuncDef]:
    """Module-level functions of ``fn``'s module that ``fn`` calls by name."""
    mod = module_of(fn)
    out: list[FuncDef] = []
    todo: list[Node] = [fn.body]
    while todo:
        n = todo.pop()
        if isinstance(n, CallExpr) and isinstance(n.callee, NameExpr):
            node = n.callee.node
            if isinstance(node, FuncDef) and is_module_function(node) and module_of(node) == mod:
                out.append(node)
        todo.extend(child_nodes(n))
    return out


def _own(fn: FuncDef) -> GlobalEffects:
    bound, declared = bound_and_declared(fn.body)
    params = {a.variable.name for a in fn.arguments}
    local = (bound - declared) | params
    reads = frozenset(r for r in free_reads(fn) if root_name(r) not in local)
    return GlobalEffects(reads, frozenset(bound & declared))


class ModuleGlobals:
    """The registry (one per plugin instance, owned by ``inputs.Inputs``)."""

    def __init__(
        self, fine_grained: bool = False, modules: Callable[[str], MypyFile | None] | None = None
    ) -> None:
        self._fine_grained = fine_grained
        self._modules: Callable[[str], MypyFile | None] = modules or (lambda _name: None)
        self._effects: dict[str, tuple[tuple[object, ...], GlobalEffects | None]] = {}
        self._unfollowed: dict[str, frozenset[str] | None] = {}

    def effects(self, fn: FuncDef) -> GlobalEffects | None:
        """What a call of ``fn`` reads and rebinds of its module's globals (None: not
        followed)."""
        fp: tuple[object, ...] = (fn.line, fn.column, fn.end_line, fn.end_column)
        cached = self._effects.get(fn.fullname)
        if cached is not None and cached[0] == fp and not self._fine_grained:
            return cached[1]
        seen: dict[str, FuncDef] = {fn.fullname: fn}
        todo = [fn]
        reads: set[str] = set()
        writes: set[str] = set()
        result: GlobalEffects | None = None
        while todo:
            cur = todo.pop()
            own = _own(cur)
            reads |= own.reads
            writes |= own.writes
            for peer in _peers(cur):
                if peer.fullname not in seen:
                    seen[peer.fullname] = peer
                    todo.append(peer)
            if len(seen) > MAX_CLOSURE:
                break
        else:
            tree = self._modules(module_of(fn))
            if tree is not None:  # only the module's variables (not its functions, imports)
                names = tree.names
                reads = {
                    r
                    for r in reads
                    if (sym := names.get(root_name(r))) is not None and isinstance(sym.node, Var)
                }
                result = GlobalEffects(frozenset(reads), frozenset(writes))
        self._effects[fn.fullname] = (fp, result)
        return result

    def peer(self, caller: Node, call: CallExpr) -> FuncDef | None:
        """The module-level function ``call`` runs by name, if it is one of the module
        of ``caller`` (a function or method of that module), else None."""
        callee = call.callee
        if not isinstance(callee, NameExpr) or not is_module_function(callee.node):
            return None
        fn = callee.node
        mod = module_of(fn)
        owner = getattr(caller, "fullname", "") or ""
        if not owner.startswith(mod + "."):
            return None
        tree = self._modules(mod)
        sym = tree.names.get(fn.name) if tree is not None else None
        return fn if sym is not None and sym.node is fn else None

    def known(self, module: str) -> bool:
        """Is ``module``'s tree at hand (else nothing of its globals is followed)?"""
        return self._modules(module) is not None

    def unfollowed(self, module: str) -> frozenset[str] | None:
        """Globals of ``module`` that code outside the closures may rebind (declared
        ``global`` in a method, nested or decorated function, or lambda; or deleted).
        None: the module is not known (then nothing is followed)."""
        if not self._fine_grained and module in self._unfollowed:
            return self._unfollowed[module]
        tree = self._modules(module)
        out: frozenset[str] | None = None
        if tree is not None:
            # Statements only: ``global`` and ``del`` are statements, and an expression
            # (a lambda, a comprehension) holds none.
            names: set[str] = set()
            todo: list[tuple[Node, bool]] = [(d, True) for d in tree.defs]
            while todo:
                n, top = todo.pop()  # top: a module-level statement (not in a function)
                if isinstance(n, FuncDef):
                    if not (top and is_module_function(n)):
                        names.update(declared_shared(n.body))
                    todo.extend((s, False) for s in n.body.body)
                elif isinstance(n, Decorator):
                    todo.append((n.func, False))
                elif isinstance(n, OverloadedFuncDef):
                    todo.extend((item, False) for item in n.items)
                    if n.impl is not None:
                        todo.append((n.impl, False))
                elif isinstance(n, ClassDef):
                    todo.extend((s, False) for s in n.defs.body)
                elif isinstance(n, DelStmt):
                    names.update(root_name(r) for r in _deleted(n))
                else:
                    todo.extend((s, top) for b in sub_blocks(n) for s in b.body)
            out = frozenset(names)
        self._unfollowed[module] = out
        return out


def _deleted(n: DelStmt) -> list[str]:
    expr = n.expr
    items = getattr(expr, "items", None)
    exprs = items if isinstance(items, list) else [expr]
    return [e.name for e in exprs if isinstance(e, NameExpr)]
