"""mypy plugin: the static half of numbaxfer's ownership rules.

Enable it in the mypy configuration of the code that uses numbaxfer::

    [mypy]
    plugins = numbaxfer.mypy_plugin

It reports, with these error codes:

* ``use-after-transfer``: a name or attribute that was passed to a *consuming*
  parameter (one annotated ``numbaxfer.Consumed[T]``, such as the source of
  ``Stream.upload``) is used again before it is rebound, on every path ("is used")
  or on some path ("may be used");
* ``unfinished-transfer``: a transfer that is discarded, dropped by rebinding its
  name, or never completed (``Transfer[None]`` from ``Stream.copy`` is exempt);
* ``transfer-completed-twice``: ``wait()`` on a transfer that was already completed;
* ``lend-escape``: the handle of ``with x.lend() as v:`` used after its block;
* ``owner-borrowed``: the owner moved, written or freed inside its ``with x.lend()``
  block, or used at all inside its ``with x.write()`` block.

Mechanism. mypy calls the plugin's signature hooks for every call it checks, with the
callee's signature (where ``Consumed[T]`` is still visible as a type alias) and the
call expression. When a call moves an argument, starts a transfer, lends, or waits,
the plugin records that fact for the function being checked (keyed on the checker's
binder object, which mypy creates afresh for every function body) and runs a small
forward data-flow analysis over that function's syntax tree: branches, loops (to a
fixed point), ``try``/``except``/``finally``, ``with``, ``match``, early exits,
comprehensions, conditional expressions, aliases made by plain assignment and calls
of local functions that read the moved name. Every read of a moved path is a use.
Errors are reported through the checker while it checks that function, so they are
cached, ignored by ``# type: ignore[code]`` and reported by dmypy like mypy's own.

mypy asks the plugin for a signature hook for every function and method full name it
calls. The plugin claims each name whose declared signature involves ownership (a
``Consumed`` parameter, a ``Transfer`` or lend result, ``Transfer.wait``) or that it
cannot look up, and leaves all others to the next plugin. mypy uses only the first
plugin that claims a name, so for the names it claims this plugin forwards the call to
the hook that the plugins listed after it (and mypy's default plugin) would have used,
then runs its own checks on the original signature. A plugin listed *before* it that
claims such a name hides those calls from it: list ``numbaxfer.mypy_plugin`` first.

Any failure inside the plugin degrades to "no check" for that call; it never aborts
mypy (set ``NUMBAXFER_MYPY_PLUGIN_DEBUG=1`` to raise instead). mypy older than 1.16 is
refused with a message.

Layout (``numbaxfer/_mypy/``, laid out like the ``returns`` plugin): this module is the
entry point mypy loads; ``plugin`` holds the plugin class (hook dispatch, delegation,
reporting); ``flow`` is the data-flow engine, over ``state`` (abstract values), ``paths``,
``syntax``, ``facts`` (what a call does) and ``scope``; ``rules/`` has one module per
error code, turning the engine's events into messages worded by ``wording``; ``names``
holds the full-name constants. The plugin imports nothing of numbaxfer's runtime
modules. ``report_config_data`` includes a digest of every module's source, so mypy's
incremental cache is invalidated by an edit to any of them.
"""

from __future__ import annotations

from ._mypy.plugin import MIN_MYPY, PLUGIN_VERSION, NumbaxferPlugin, plugin
from ._mypy.rules import (
    LEND_ESCAPE,
    OWNER_BORROWED,
    TRANSFER_COMPLETED_TWICE,
    UNFINISHED_TRANSFER,
    USE_AFTER_TRANSFER,
)

__all__ = [
    "LEND_ESCAPE",
    "MIN_MYPY",
    "OWNER_BORROWED",
    "PLUGIN_VERSION",
    "TRANSFER_COMPLETED_TWICE",
    "UNFINISHED_TRANSFER",
    "USE_AFTER_TRANSFER",
    "NumbaxferPlugin",
    "__version__",
    "plugin",
]

#: The plugin's version: numbaxfer's, as mypy's ``--version``-style reports show it.
__version__ = "0.1.0"
