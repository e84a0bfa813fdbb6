"""Full names of the numbaxfer symbols the plugin recognises, and the attribute sets
that decide what a read of a handle touches."""

from __future__ import annotations

from typing import Final

CONSUMED: Final = "numbaxfer._ownership.Consumed"
STREAM: Final = "numbaxfer._stream.Stream"
TRANSFER: Final = "numbaxfer._transfer.Transfer"
TRANSFER_WAIT: Final = "numbaxfer._transfer.Transfer.wait"
PIPELINE_RUN: Final = "numbaxfer._pipeline.PipelineRun"
GRAPH_RUN: Final = "numbaxfer._graph.GraphRun"
#: Results that hold moved host buffers until their ``wait()`` gives them back: a use of
#: a buffer moved into one is fixed by taking it back, and dropping one is an error.
PRODUCERS: Final = frozenset({TRANSFER, PIPELINE_RUN, GRAPH_RUN})
#: The completions of PRODUCERS.
WAITS: Final = frozenset({TRANSFER_WAIT, PIPELINE_RUN + ".wait", GRAPH_RUN + ".wait"})
#: Calling a functools.partial: mypy's functools plugin keeps the partially applied
#: signature on the partial's type, which is what the call does.
PARTIAL_CALL: Final = "functools.partial.__call__"
LEND_SCOPE: Final = "numbaxfer._ownership.LendScope"
#: ``with h.write()`` opens a view that borrows ``h`` (rule 3) without moving, lending
#: or waiting: a call of it makes the plugin analyse its function all the same.
BORROW_ENTRIES: Final = frozenset({"numbaxfer._host.PinnedArray.write"})
#: Stores into builtin containers: claimed so that a function storing a Lent parameter
#: into a module global (``_EXPORTED[name] = view``) is analysed (``flow.escapes``).
LENT_STORES: Final = frozenset(
    {
        "builtins.dict.__setitem__",
        "builtins.dict.setdefault",
        "builtins.list.__setitem__",
        "builtins.list.append",
        "builtins.list.insert",
        "builtins.set.add",
        "collections.deque.append",
        "collections.deque.appendleft",
    }
)
#: The capability of a borrowed handle (``PinnedArray[Lent, DT]``).
LENT: Final = "numbaxfer._ownership.Lent"
#: What ``@contextlib.contextmanager`` (and its async twin) make of a generator: one
#: whose entered value is a Lent handle is a lend scope (see ``facts.ret_kind``).
GENERATOR_CMS: Final = frozenset(
    {"contextlib._GeneratorContextManager", "contextlib._AsyncGeneratorContextManager"}
)
#: ``Stream.map`` returns a Mapping, completed by ``wait()`` like a transfer.
MAPPING: Final = "numbaxfer._mapped.Mapping"
#: ``nx.pinned(...)`` / ``nx.mapped(...)``: blocks pinning numpy arrays in place.
PINNED_SCOPES: Final = frozenset({"numbaxfer._scope.pinned", "numbaxfer._scope.mapped"})
FUNCTOOLS_PARTIAL: Final = "functools.partial"
CONTEXTMANAGER: Final = "contextlib.contextmanager"
#: Calls that run a function of the program later, in a worker thread or from the
#: event loop, with arguments bound now (``blocks.deferred_call``): the executor and
#: loop methods by the class that defines them, then the functions and classes.
EXECUTOR_CLASSES: Final = frozenset(
    {"concurrent.futures._base.Executor", "asyncio.events.AbstractEventLoop"}
)
#: ``Fact.called`` of a move made by such a deferred call (for the message).
DEFERRED: Final = "<deferred>"
#: ... by a ``threading.Thread`` target, moved at the thread's ``start()``.
DEFERRED_THREAD: Final = "<thread>"
THREAD_STARTERS: Final = frozenset({"asyncio.threads.to_thread", "threading.Thread"})
#: ``await asyncio.wait_for(t, timeout)`` / ``await asyncio.shield(t)`` return what
#: ``await t`` returns, and get there only once ``t.__await__`` has waited (a timeout
#: or a cancellation leaves it pending: Transfer's awaitable is cancelled before its
#: ``wait()``); ``await asyncio.gather(a, b)`` returns only once every one has.
AWAIT_ONE: Final = frozenset({"asyncio.tasks.wait_for", "asyncio.tasks.shield"})
AWAIT_ALL: Final = frozenset({"asyncio.tasks.gather"})
#: ``with contextlib.ExitStack() as stack``: ``stack.enter_context(cm)`` ends with it.
EXIT_STACKS: Final = frozenset({"contextlib.ExitStack", "contextlib.AsyncExitStack"})
#: ``with pytest.raises(E):``: the body ends by an exception (or the test fails), so
#: what follows the block sees the state at one of the body's raise points.
EXPECTS_RAISE: Final = frozenset({"_pytest.raises.raises", "_pytest.python_api.raises"})
#: Handles whose metadata (shape, dtype, ...) may be read in any state.
HANDLES: Final = frozenset(
    {"numbaxfer._host.PinnedArray", "numbaxfer._device.DeviceArray", "numbaxfer._stream.Stream"}
)
#: The callee of the fact standing for ``yield buf`` handing ``buf`` out (flow.yield_away).
YIELDED: Final = "<yield>"
#: Generator types whose second argument is what ``send()`` gives the generator.
GENERATOR_TYPES: Final = frozenset({"typing.Generator", "collections.abc.Generator"})
#: (Also ``done()`` and ``completed`` of a transfer handed on to a chained one: the
#: runtime answers them, True, without touching the transfer.)
METADATA: Final = frozenset(
    {"shape", "dtype", "size", "nbytes", "ndim", "label", "closed", "done", "completed"}
)
#: Reads of a transfer that neither complete it nor hand it on.
#: (``device`` and ``racy_peek`` are a Mapping's: reading them hands nothing on.)
TRANSFER_NEUTRAL: Final = frozenset({"done", "label", "completed", "device", "racy_peek"})
DEBUG_ENV: Final = "NUMBAXFER_MYPY_PLUGIN_DEBUG"
#: The ``extra`` of a use event made by a returned closure (``flow.closures_returned``):
#: followed by who reads ("finish()" returned at line 9).
CLOSURE_READ: Final = "closure|"
#: The state's key, under a stream's path, for the transfers started on it
#: (``flow.on_stream``; no path of a program can spell it).
ISSUED: Final = ".\0issued"
#: The state's key, under a path, for the reads of it made while a summary's sentinel
#: stood for its entry value (``classes.py``: a read before the method's own take-back).
READS: Final = ".\0reads"
#: The state's key, under a stream's path, for a ``close()`` of it made on this path
#: (``flow.on_stream``): a later completion of a transfer the object held at entry.
CLOSED: Final = ".\0closed"
#: Stream methods that refuse a closed stream (StreamClosedError): a call of one on a
#: path whose ``CLOSED`` key holds a close is a use after close.
STREAM_OPS: Final = frozenset(
    {
        "upload",
        "upload_staged",
        "download",
        "copy",
        "launch",
        "wait_for",
        "map",
        "synchronize",
        "lend",
        "close",
    }
)
#: The state's key, under a container of transfers, for the completion of one of its
#: elements (``ups[0].wait()``): a loop over all its elements then completes it again.
ONE_DONE: Final = ".\0one-done"
#: The state's key, under a transfer's name, for a container it was added to
#: (``t.\0in:pending`` after ``pending.append(t)``): completing ``t`` completes an
#: element of ``pending``. Rebinding ``t``, or any store into ``pending``, drops it.
MEMBER_OF: Final = ".\0in:"
#: Types whose values hold no handle, transfer or lend (a read of one is never a use).
INERT_TYPES: Final = frozenset(
    {"builtins.int", "builtins.float", "builtins.str", "builtins.bool", "builtins.bytes"}
)
MAX_LOOP_ITERATIONS: Final = 32
MAX_SCOPES: Final = 128
MAX_ALIASES: Final = 256
#: Seconds of analysis one function body (or module top level) may take in all; past
#: that, later calls in it are not re-analysed (see docs/static-checker.md).
SCOPE_BUDGET_S: Final = 5.0


def in_library(fullname: str) -> bool:
    """Is ``fullname`` (a module, class or function) numbaxfer's own? Its signatures say
    what it does, so its bodies are never summarised."""
    return fullname.split(".")[0] == "numbaxfer"
