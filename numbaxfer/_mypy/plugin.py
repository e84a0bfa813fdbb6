"""The mypy plugin class: hook dispatch, delegation to later plugins, per-scope
analysis and reporting through the checker."""

from __future__ import annotations

import hashlib
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, TypeAlias

from mypy.nodes import (
    CallExpr,
    FakeInfo,
    FuncDef,
    FuncItem,
    LambdaExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    RefExpr,
    Statement,
    TypeInfo,
    Var,
)
from mypy.options import Options
from mypy.plugin import (
    AttributeContext,
    FunctionSigContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import (
    CallableType,
    FunctionLike,
    Instance,
    Type,
    get_proper_type,
)

from .blocks import borrow_may_conflict, deferred_call, defers
from .classes import Objects
from .facts import (
    calls_a_value,
    declared_types,
    fact_from_signature,
    implied_consumed,
    is_consumed,
    is_inert,
    is_lent_handle,
    map_actuals,
    ret_kind,
    sends_handles,
    short_name,
    signature_matters,
    transfer_items,
)
from .flow import Analysis
from .names import (
    BORROW_ENTRIES,
    DEBUG_ENV,
    LENT_STORES,
    MAX_SCOPES,
    PARTIAL_CALL,
    SCOPE_BUDGET_S,
    WAITS,
)
from .paths import position_key
from .rules import collect_messages
from .scope import Scope
from .state import Message
from .syntax import yields_away

#: Bump when the plugin's behaviour changes on purpose; the incremental cache key also
#: holds a digest of every module of the plugin (see ``source_digest``).
PLUGIN_VERSION: Final = "11"


def source_digest(package: Path | None = None) -> str:
    """SHA-256 over the source of every module of the plugin (this package and its
    entry module): mypy's incremental cache notices edits to the entry file only, so
    ``report_config_data`` hands it this, and an edit anywhere invalidates the cache."""
    here = package if package is not None else Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted([*here.rglob("*.py"), here.parent / "mypy_plugin.py"]):
        digest.update(path.relative_to(here.parent).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


MIN_MYPY: Final = (1, 16)

# --------------------------------------------------------------------------------------
# The plugin
# --------------------------------------------------------------------------------------

_SigContext: TypeAlias = FunctionSigContext | MethodSigContext
_SigHook: TypeAlias = Callable[[FunctionSigContext], FunctionLike]
_MethodSigHook: TypeAlias = Callable[[MethodSigContext], FunctionLike]
_AttrHook: TypeAlias = Callable[[AttributeContext], Type]


class NumbaxferPlugin(Plugin):
    """See the module docstring."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._function_hooks: dict[str, _SigHook] = {}
        self._method_hooks: dict[str, _MethodSigHook] = {}
        self._others: list[Plugin] | None = None
        self._other_function_hooks: dict[str, _SigHook | None] = {}
        self._other_method_hooks: dict[str, _MethodSigHook | None] = {}
        self._scopes: dict[int, Scope] = {}
        #: full name -> (the declared types it was decided on, claimed?)
        self._claimed: dict[str, tuple[tuple[Type | None, ...], bool]] = {}
        self._fine_grained = bool(getattr(options, "fine_grained_incremental", False))
        self._digest: str | None = None
        #: Summaries of what methods do to their object's attributes (classes.py).
        self._objects = Objects(self._fine_grained, self._foreign, self._module)
        self._foreign_modules: dict[str, bool] = {}
        #: mypy's files whose errors it discards (the set itself, seen at a first hook)
        self._ignored: set[str] = set()
        self._attr_hooks: dict[str, _AttrHook] = {}
        self._object_calls: dict[str, bool] = {}
        self._object_attrs: dict[str, int] = {}
        #: full name -> claimed?, once nothing about it can change in this build
        self._decided: dict[str, bool] = {}
        #: full name -> the hook factory's final answer (a hook, or None: not claimed)
        self._function_answers: dict[str, _SigHook | None] = {}
        self._method_answers: dict[str, _MethodSigHook | None] = {}

    def report_config_data(self, ctx: ReportConfigContext) -> object:
        if self._digest is None:
            self._digest = source_digest()
        return {"numbaxfer.mypy_plugin": PLUGIN_VERSION, "sources": self._digest}

    # -- hook factories --------------------------------------------------------------
    # mypy asks for a hook for every full name it calls. The plugin claims the names
    # whose declared signature can matter (a Consumed parameter, a Transfer or lend
    # result, Transfer.wait, or a callee it cannot look up) and lets mypy go on to the
    # next plugin for all others: the signature-hook machinery is not free.
    # Once a claim is final (``_decided``), the answer itself is kept: mypy asks again
    # at every call it checks, and most calls are of names never claimed.
    def get_function_signature_hook(self, fullname: str) -> _SigHook | None:
        answers = self._function_answers
        if fullname in answers:
            return answers[fullname]
        hook = self._function_hooks.get(fullname)
        if hook is None:

            def hook(ctx: FunctionSigContext, _name: str = fullname) -> FunctionLike:
                return self._function_sig(ctx, _name)

            self._function_hooks[fullname] = hook
        out = hook if self._claims(fullname) else None
        if fullname in self._decided:
            self._function_answers[fullname] = out
        return out

    def get_method_signature_hook(self, fullname: str) -> _MethodSigHook | None:
        answers = self._method_answers
        if fullname in answers:
            return answers[fullname]
        hook = self._method_hooks.get(fullname)
        if hook is None:

            def hook(ctx: MethodSigContext, _name: str = fullname) -> FunctionLike:
                return self._method_sig(ctx, _name)

            self._method_hooks[fullname] = hook
        out = hook if self._claims(fullname) else None
        if fullname in self._decided:
            self._method_answers[fullname] = out
        return out

    def get_attribute_hook(self, fullname: str) -> _AttrHook | None:
        """``self.x`` (or ``obj.x``) where some method of the class leaves ``x`` moved
        with its transfer in another attribute: a read inside a method may be a use
        (the protocol rule of classes.py), so the enclosing scope is analysed. Where
        some method leaves ``x`` moved, a read in a method of a *subclass* is analysed
        too: a ``super().m()`` before it may have moved it (mypy has no hook for calls
        through ``super()``)."""
        try:
            level = self._object_attrs.get(fullname)
            if level is None:
                # Whether it matters needs the class's summary: decided at the read
                # (``_attribute_use``), where the checker's position is known. Here only
                # whether the class could have one (a cheap syntactic test).
                cls, _, attr = fullname.rpartition(".")
                info = self._class_info(cls)
                if info is None or _inert(info, attr) or not self._objects.may_matter(info):
                    if not self._fine_grained:
                        self._object_attrs[fullname] = 0
                    return None
            elif not level:
                return None
        except Exception:
            if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
                raise
            return None
        hook = self._attr_hooks.get(fullname)
        if hook is None:

            def hook(ctx: AttributeContext) -> Type:
                try:
                    if self._attribute_use(ctx, fullname):
                        self._on_object_use(ctx.api)
                except Exception:
                    if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
                        raise
                return ctx.default_attr_type

            self._attr_hooks[fullname] = hook
        return hook

    def _attribute_use(self, ctx: AttributeContext, fullname: str) -> bool:
        """Is this read of ``fullname`` possibly a use (``classes.Objects.
        attribute_matters``; or, in a method of a subclass, ``attribute_moved``)? Not
        ``self.x`` inside ``__init__``: nothing is moved at a constructor's entry, and
        the class is mid-check there (its attributes untyped, so a summary built then
        would be a draft)."""
        cls, _, attr = fullname.rpartition(".")
        level = self._object_attrs.get(fullname)
        if level is None:
            if _self_in_init(ctx):
                return False
            info = self._class_info(cls)
            level = 0
            if info is not None and self._objects.attribute_matters(info, attr):
                level = 2
            elif info is not None and self._objects.attribute_moved(info, attr):
                level = 1
            if not self._fine_grained and not self._objects.incomplete():
                self._object_attrs[fullname] = level  # one build: decided once
        return level == 2 or (level == 1 and self._in_subclass(ctx.api, cls))

    def _in_subclass(self, api: object, owner: str) -> bool:
        """Is mypy checking a method of a strict subclass of the class ``owner``?"""
        scope = self._scope(api)
        fn = scope.node if scope is not None else None
        if not isinstance(fn, FuncDef) or isinstance(fn.info, FakeInfo):
            return False
        return fn.info.fullname != owner and any(b.fullname == owner for b in fn.info.mro[1:])

    def _foreign(self, fullname: str) -> bool:
        """Is ``fullname`` (a function, class or method) defined in an installed
        package (site-packages), a stub, or a module whose errors mypy discards? Their
        bodies are not summarised: nothing there is reported, and a large library
        (dask, say) would cost an analysis per function called."""
        modules = self._modules or {}
        mod = fullname
        while mod and mod not in modules:
            mod = mod.rpartition(".")[0]
        if not mod:
            return False  # no module of its own (a nested function): the caller's
        known = self._foreign_modules.get(mod)
        if known is None:
            file = modules.get(mod)
            path = (getattr(file, "path", "") or "").replace("\\", "/")
            known = (
                file is None
                or bool(getattr(file, "is_stub", False))
                or "/site-packages/" in path
                or "/dist-packages/" in path
                or path in self._ignored
            )
            self._foreign_modules[mod] = known
        return known

    def _module(self, name: str) -> MypyFile | None:
        return (self._modules or {}).get(name)

    def _class_info(self, fullname: str) -> TypeInfo | None:
        sym = self.lookup_fully_qualified(fullname) if fullname else None
        node = sym.node if sym is not None else None
        return node if isinstance(node, TypeInfo) and not isinstance(node, FakeInfo) else None

    def _object_call(self, fullname: str) -> bool:
        """Is ``fullname`` a method (``pkg.mod.Cls.m``) or a plain function whose
        summary reads or changes attributes of its object or arguments (classes.py)?"""
        known = self._object_calls.get(fullname)
        if known is not None:
            return known
        sym = self.lookup_fully_qualified(fullname)
        node: object = sym.node if sym is not None else None
        if node is None:  # ``Sub.m`` for a method ``Sub`` inherits: the base's
            cls, _, meth = fullname.rpartition(".")
            info = self._class_info(cls)
            node = info.get_method(meth) if info is not None else None
        if not isinstance(node, FuncDef):
            matters = False
        elif isinstance(node.info, FakeInfo):
            matters = self._objects.function_matters(node)
        else:
            matters = self._objects.method_matters(node.info, node.name)
        if not self._fine_grained and not self._objects.incomplete():
            self._object_calls[fullname] = matters  # one build: decided once
        return matters

    def _local_call(self, ctx: _SigContext) -> bool:
        """Is this a call, by name, of a function or lambda the scope itself defines,
        which moves or keeps what it is given (``inputs.py``)? Such a function has no
        full name to look up."""
        call = ctx.context
        if not isinstance(call, CallExpr) or not isinstance(call.callee, NameExpr):
            return False
        node = call.callee.node
        if isinstance(node, FuncDef):
            sym = self.lookup_fully_qualified(node.fullname) if node.fullname else None
            if sym is not None and sym.node is node:
                return False  # it has a full name: ``_object_call`` decided
        elif not isinstance(node, Var):
            return False
        scope = self._scope(ctx.api)
        return scope is not None and self._objects.inputs.local_matters(scope, call.callee.name)

    def _deferred_matters(self, ctx: _SigContext) -> bool:
        """``executor.submit(f, a)`` and the like (``blocks.deferred_call``): does the
        call of ``f`` it binds move or keep what it is given?"""
        call = ctx.context
        if not isinstance(call, CallExpr):
            return False
        recv = get_proper_type(ctx.type) if isinstance(ctx, MethodSigContext) else None
        later = deferred_call(call, recv.type if isinstance(recv, Instance) else None)
        if later is None or not isinstance(later.callee, RefExpr):
            return False
        target = later.callee
        if isinstance(target, NameExpr):
            scope = self._scope(ctx.api)
            if scope is not None and target.name in scope.local_funcs:
                return self._objects.inputs.local_matters(scope, target.name)
        node = target.node
        if isinstance(node, FuncDef) and node.fullname:
            return self._object_call(node.fullname)
        return False

    def _on_object_use(self, api: object) -> None:
        """A use that only the object model makes relevant: make sure the scope has an
        up-to-date analysis, and report what it found."""
        if _errors_ignored(api):
            return
        scope = self._scope(api)
        if scope is None:
            return
        last = scope.analysis
        if not isinstance(last, Analysis) or last.unresolved:
            self._analyse(scope)
        self._report_to(api, scope)

    def _claims(self, fullname: str) -> bool:
        decided = self._decided.get(fullname)
        if decided is not None:
            return decided
        claim = self._claim(fullname)
        if not self._fine_grained and fullname in self._object_calls:
            # Both halves final (the summary was complete; one build, one signature).
            self._decided[fullname] = claim
        return claim

    def _claim(self, fullname: str) -> bool:
        if fullname in WAITS or fullname == PARTIAL_CALL or fullname in BORROW_ENTRIES:
            return True
        if fullname in LENT_STORES or defers(fullname):
            return True
        try:
            if self._object_call(fullname):
                return True  # decided afresh: a summary may be incomplete at first
        except Exception:
            if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
                raise
        if not self._fine_grained:
            # One build sees each symbol with one signature: decide once. (dmypy updates
            # symbols in place, so there the decision is checked against the symbol.)
            cached = self._claimed.get(fullname)
            if cached is not None:
                return cached[1]
        try:
            sym = self.lookup_fully_qualified(fullname)
            node = sym.node if sym is not None else None
            if node is None:
                return True  # a local name or something unusual: look at the call
            types = declared_types(node)
            cached = self._claimed.get(fullname)
            if (
                cached is not None
                and len(cached[0]) == len(types)
                and all(a is b for a, b in zip(cached[0], types, strict=True))
            ):
                return cached[1]
            claim = any(t is None or signature_matters(t) for t in types)
            self._claimed[fullname] = (types, claim)
            return claim
        except Exception:
            if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
                raise
            return True

    # -- delegation to the plugins after this one ----------------------------------
    def _later_plugins(self, api: object) -> list[Plugin]:
        if self._others is None:
            others: list[Plugin] = []
            try:
                chain = getattr(api, "plugin", None)
                plugins = getattr(chain, "_plugins", None)
                if isinstance(plugins, list):
                    for i, p in enumerate(plugins):
                        if p is self:
                            others = [q for q in plugins[i + 1 :] if isinstance(q, Plugin)]
                            break
            except Exception:  # pragma: no cover - mypy internals changed
                others = []
            self._others = others
        return self._others

    def _function_sig(self, ctx: FunctionSigContext, fullname: str) -> FunctionLike:
        sig: FunctionLike = ctx.default_signature
        if fullname in self._other_function_hooks:
            other = self._other_function_hooks[fullname]
        else:
            other = None
            for p in self._later_plugins(ctx.api):
                other = p.get_function_signature_hook(fullname)
                if other is not None:
                    break
            self._other_function_hooks[fullname] = other
        if other is not None:
            sig = other(ctx)
        self._guarded(ctx, fullname, False)
        return sig

    def _method_sig(self, ctx: MethodSigContext, fullname: str) -> FunctionLike:
        sig: FunctionLike = ctx.default_signature
        if fullname in self._other_method_hooks:
            other = self._other_method_hooks[fullname]
        else:
            other = None
            for p in self._later_plugins(ctx.api):
                other = p.get_method_signature_hook(fullname)
                if other is not None:
                    break
            self._other_method_hooks[fullname] = other
        if other is not None:
            sig = other(ctx)
        self._guarded(ctx, fullname, True)
        return sig

    # -- the check -------------------------------------------------------------------
    def _guarded(self, ctx: _SigContext, fullname: str, is_method: bool) -> None:
        try:
            if not self._ignored:
                ignored = _ignored_files(ctx.api)
                if ignored:
                    self._ignored = ignored
                    self._foreign_modules.clear()
            self._on_call(ctx, fullname, is_method)
        except Exception:
            if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
                raise
            # degrade: this call goes unchecked

    def _on_call(self, ctx: _SigContext, fullname: str, is_method: bool) -> None:
        if fullname in BORROW_ENTRIES:
            # The rules of its block, over its function: unless the block never names
            # the owner (the usual ``with h.write() as a: a[:] = ...``).
            scope = self._scope(ctx.api)
            call = ctx.context
            if (
                scope is not None
                and isinstance(call, CallExpr)
                and (borrow_may_conflict(scope.body, call) or _yields_handles_away(scope))
            ):
                self._on_object_use(ctx.api)
            return
        if defers(fullname):  # claimed for this only: ``pool.submit(f, a)``
            if self._deferred_matters(ctx):
                self._on_object_use(ctx.api)
            return
        sig = ctx.default_signature
        if fullname in LENT_STORES:  # claimed for this only: a Lent handle stored
            if any(is_lent_handle(t) for t in sig.arg_types):
                self._on_object_use(ctx.api)
            return
        partial: CallableType | None = None
        if fullname == PARTIAL_CALL and isinstance(ctx, MethodSigContext):
            recv = get_proper_type(ctx.type)
            extra = recv.extra_attrs if isinstance(recv, Instance) else None
            applied = get_proper_type(extra.attrs.get("__mypy_partial")) if extra else None
            if isinstance(applied, CallableType):
                partial = sig = applied
            # else (a partial of an overloaded function, say): ``__call__(*args,
            # **kwargs) -> T`` still says whether the call starts a transfer; what it
            # does to arguments bound inside the partial is the engine's (flow.call)
        consumed = False
        for t in sig.arg_types:
            if is_consumed(t):
                consumed = True
                break
        is_wait = fullname in WAITS
        if not consumed and not is_wait:
            kind = ret_kind(sig.ret_type)
            if kind not in ("producer", "lend") and not transfer_items(sig.ret_type):
                if self._object_call(fullname) or self._local_call(ctx):
                    self._on_object_use(ctx.api)
                return
        call = ctx.context
        if not isinstance(call, CallExpr) or _errors_ignored(ctx.api):
            return
        scope = self._scope(ctx.api)
        if scope is None:
            return
        actual_index = {id(a): i for i, a in enumerate(call.args)}
        formal_actuals: list[list[int]] | None = [
            [actual_index[id(a)] for a in group if id(a) in actual_index] for group in ctx.args
        ]
        if partial is not None:  # ctx.args are for __call__(*args, **kwargs)
            formal_actuals = map_actuals(call, partial, False)
            meth, _, cls = (partial.name or "").partition(" of ")  # "upload of Stream"
            if meth:
                fullname = f"{cls}.{meth}" if cls else meth
        if formal_actuals is None:
            return
        fact = fact_from_signature(
            call,
            sig.arg_types,
            sig.ret_type,
            formal_actuals,
            short_name(fullname, is_method),
            True,
            is_wait,
            implied_consumed(sig) if partial is None and calls_a_value(call) else None,
        )
        if not fact.relevant():
            if self._object_call(fullname) or self._local_call(ctx):
                self._on_object_use(ctx.api)
            return
        key = position_key(call)
        old = scope.confirmed.get(key)
        if old is None:
            predicted = scope.predicted.get(key)
            if predicted is not None and predicted.signature() == fact.signature():
                predicted.confirm()  # the atoms of the last analysis refer to it
                predicted.callee = fact.callee
                fact = predicted
            else:
                scope.add(fact)
            scope.confirmed[key] = fact
            last = scope.analysis
            if (
                isinstance(last, Analysis)
                and last.treated.get(key) == fact.signature()
                and not last.retyped()
            ):
                # The last analysis already gave this call these effects: only what is
                # reportable changes (errors need a confirmed call).
                scope.pending = [m for m in collect_messages(last) if m[3] not in scope.reported]
            else:
                self._analyse(scope)
        elif old.signature() != fact.signature():
            # Another overload item or union member: the union of what they do.
            old.consumed = tuple(sorted(set(old.consumed) | set(fact.consumed)))
            old.handles = old.handles and fact.handles
            old.producer = old.producer or fact.producer
            old.mapping = old.mapping or fact.mapping
            old.lend = old.lend or fact.lend
            old.wait = old.wait or fact.wait
            self._analyse(scope)
        self._report(ctx, scope)

    def _scope(self, api: object) -> Scope | None:
        binder = getattr(api, "binder", None)
        if binder is None:
            return None
        scope = self._scopes.get(id(binder))
        if scope is not None and scope.binder is binder:
            return scope
        stack = getattr(getattr(api, "scope", None), "stack", None)
        if not isinstance(stack, list):
            return None
        body: list[Statement] | None = None
        node: Node | None = None
        for item in reversed(stack):
            if isinstance(item, LambdaExpr):
                continue
            if isinstance(item, FuncItem):
                node, body = item, item.body.body
                break
            if isinstance(item, TypeInfo):
                return None  # class bodies are not checked
            if isinstance(item, MypyFile):
                node, body = item, item.defs
                break
        if node is None or body is None:
            return None
        scope = Scope(binder, node, body)
        scope.objects = self._objects
        if len(self._scopes) >= MAX_SCOPES:
            for k in list(self._scopes)[: MAX_SCOPES // 2]:
                del self._scopes[k]
        self._scopes[id(binder)] = scope
        return scope

    def _analyse(self, scope: Scope) -> None:
        if scope.spent > SCOPE_BUDGET_S:
            return  # a pathological scope: keep what the analyses so far found
        start = time.perf_counter()
        analysis = Analysis(scope)
        analysis.run()
        scope.spent += time.perf_counter() - start
        scope.analysis = analysis
        scope.pending = [m for m in collect_messages(analysis) if m[3] not in scope.reported]

    def _report(self, ctx: _SigContext, scope: Scope) -> None:
        self._report_to(ctx.api, scope)

    def _report_to(self, api: object, scope: Scope) -> None:
        """Report what the last analysis found and is not reported yet.

        mypy sometimes checks a call while it discards errors (overloads, comprehensions
        checked twice); an error that did not reach mypy's list is tried again at the next
        hook of this scope.
        """
        if not scope.pending:
            return
        errors = getattr(getattr(api, "msg", None), "errors", None)
        fail = getattr(api, "fail", None)
        if not callable(fail):
            return
        still: list[Message] = []
        for message in scope.pending:
            code, node, text, dedupe = message
            if dedupe in scope.reported:
                continue
            # A message tried while mypy held its errors back may still reach the output
            # (mypy replays some): a retry of it keeps the first wording, so that mypy,
            # which drops identical errors, shows one (a later analysis may say "is"
            # where the first said "may").
            text = scope.attempted.setdefault(dedupe, text)
            before = _error_count(errors)
            fail(text, node, code=code)
            if before is None or _error_count(errors) != before:
                scope.reported.add(dedupe)
            else:
                still.append((code, node, text, dedupe))
        scope.pending = still


def _inert(info: TypeInfo, attr: str) -> bool:
    """Is ``info.attr`` a variable of a type that holds no handle (``int``, ``str``...)?
    Its read is never a use, whatever the class's summary says."""
    sym = info.get(attr)
    node = sym.node if sym is not None else None
    if not isinstance(node, Var) or node.type is None:
        return False
    return is_inert(node.type)


def _self_in_init(ctx: AttributeContext) -> bool:
    """Is the read ``self.x`` in an ``__init__`` (of whatever class ``self`` is)?"""
    node = ctx.context
    if not isinstance(node, MemberExpr) or not isinstance(node.expr, NameExpr):
        return False
    stack = getattr(getattr(ctx.api, "scope", None), "stack", None)
    if not isinstance(stack, list):
        return False
    for item in reversed(stack):
        if isinstance(item, FuncItem):
            return (
                isinstance(item, FuncDef)
                and item.name == "__init__"
                and bool(item.arguments)
                and item.arguments[0].variable.name == node.expr.name
            )
    return False


def _ignored_files(api: object) -> set[str] | None:
    """mypy's set of files whose errors it discards (filled as it parses them)."""
    errors = getattr(getattr(api, "msg", None), "errors", None)
    ignored = getattr(errors, "ignored_files", None)
    return ignored if isinstance(ignored, set) else None


def _errors_ignored(api: object) -> bool:
    """Are errors in the module being checked thrown away (ignore_errors, silent imports)?"""
    errors = getattr(getattr(api, "msg", None), "errors", None)
    ignored = getattr(errors, "ignored_files", None)
    if isinstance(ignored, set) and getattr(errors, "file", None) in ignored:
        return True
    return getattr(getattr(errors, "options", None), "ignore_errors", False) is True


def _error_count(errors: object) -> int | None:
    try:
        info = getattr(errors, "error_info_map", None)
        file = getattr(errors, "file", None)
        if isinstance(info, dict) and isinstance(file, str):
            return len(info.get(file, ()))
    except Exception:  # pragma: no cover
        return None
    return None


def _parse_version(version: str) -> tuple[int, ...]:
    nums: list[int] = []
    for part in version.split("+")[0].split(".")[:3]:
        m = re.match(r"\d+", part)
        if m is None:
            break
        nums.append(int(m.group()))
    return tuple(nums)


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: refuse mypy older than 1.16, else the plugin class."""
    if _parse_version(version) < MIN_MYPY:
        print(
            f"error: numbaxfer.mypy_plugin needs mypy >= {MIN_MYPY[0]}.{MIN_MYPY[1]}, but this "
            f"is mypy {version}. Upgrade mypy (pip install 'mypy>=1.16'), or remove "
            "numbaxfer.mypy_plugin from the `plugins` option of your mypy configuration.",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return NumbaxferPlugin


def _yields_handles_away(scope: Scope) -> bool:
    """A generator taking handles back through ``send()`` whose body drops what a
    ``yield`` gets back (``flow.yield_away``): its body moves what it yields."""
    fn = scope.node
    return isinstance(fn, FuncItem) and sends_handles(fn) and yields_away(fn)
