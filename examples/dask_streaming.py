"""numbaxfer streaming inside the worker processes of a Dask ``LocalCluster``.

Past one host, the engine that moves work between processes is Dask's (or Ray's), not
numbaxfer's. numbaxfer's part is inside each worker process: the worker owns its GPU,
its streams and its pool of pinned buffers; those are created once per worker, by a
``WorkerPlugin`` whose ``setup`` runs in the worker process, and never leave it.

The raw numba idiom::

    _cache = {}                                   # per-process GPU state, keyed by pid

    def stream_block(seed):
        st = _cache.setdefault(os.getpid(), make_streams_and_pinned_buffers())
        for c in range(chunks):
            buf = st.bufs[c % 2]
            buf[:] = make_chunk(seed, c)          # BUG: the copy issued two chunks ago
            d_in.copy_to_device(buf, stream=s)    #   may still be reading buf
            ...
        return st.out                             # BUG: a view of a pinned buffer the
                                                  #   next task on this worker refills
    client.submit(stream_block, dev_array)        # or: a device array sent as an argument

The hazard: the cached buffers are reused under copies still in flight, and a result
that is a view of the worker's pinned memory changes after the task returned (Dask keeps
results in the worker's memory until they are gathered). A device array or pinned
buffer pickled into another process is a second owner of memory it cannot reach.

numbaxfer: ``NumbaxferWorker.setup`` builds one ``WorkerState`` per worker process (its
device, two slots of stream + device buffers, an ``nx.PinnedPool``); a task gets it back
through ``get_worker()``. Only descriptions of work cross processes (``Block``: number,
chunk count, seed; a real job would name a file); each chunk is generated straight
into a pooled pinned buffer, which moves into its upload and comes home from the chained
download's ``wait()``; the task returns a plain numpy copy (``BlockResult.values``),
owned by nobody. A numbaxfer handle handed to ``client.submit`` is refused when Dask
pickles it, with numbaxfer's message (``refused_handle_message``).

Device placement: ``_worker_device`` is the one place that puts a worker's handles on a
GPU (worker i -> device i % nx.device_count(); docs/multi-host.md).

    python examples/dask_streaming.py                             # the GPU, if there is one
    NUMBAXFER_BACKEND=emulator python examples/dask_streaming.py  # the lazy CPU emulator
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final, NamedTuple

import cloudpickle  # no type hints: mypy.ini lets it be Any
import numpy as np
from distributed import Client, LocalCluster, Worker, WorkerPlugin, get_worker
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]

#: The name the plugin is registered under (``worker.plugins[PLUGIN_NAME]``).
PLUGIN_NAME: Final = "numbaxfer-streaming"


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def affine(src: Any, dst: Any) -> None:
    """``dst = 2 src + 1`` (grid-stride loop)."""
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = 2.0 * src[i] + 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads): 64 threads a block, >= 4 elements a thread (small grids keep
    the CPU backends, which run CUDA threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


class Block(NamedTuple):
    """A description of work: all that goes from the client to a worker."""

    number: int
    chunks: int  # chunks of the worker's chunk size
    seed: int  # the data: chunk c is the c-th draw of default_rng(seed)


class BlockResult(NamedTuple):
    """What comes back: plain values and where they were made."""

    block: int  # Block.number
    values: NDArray[np.float32]  # a copy, owned by nobody (no pinned memory behind it)
    pid: int  # the worker process
    worker: int  # its index (LocalCluster names workers 0..n-1)
    device: int  # the GPU it owns
    state_id: int  # id() of its WorkerState: one per process, made once


def fill_chunk(rng: np.random.Generator, out: NDArray[np.float32]) -> None:
    """Chunk data, drawn in place (the worker into pinned memory, the client for checks)."""
    rng.standard_normal(dtype=np.float32, out=out)


def expected(block: Block, chunk: int) -> NDArray[np.float32]:
    """What ``stream_block(block)`` must return, computed on the client with numpy."""
    rng = np.random.default_rng(block.seed)
    data = np.empty(block.chunks * chunk, np.float32)
    for c in range(block.chunks):
        fill_chunk(rng, data[c * chunk : (c + 1) * chunk])
    return 2.0 * data + 1.0


class Slot:
    """A stream, its device buffers, and the chunk in flight on it (None: none)."""

    def __init__(self, stream: nx.Stream[nx.Owned], dev_in: Dev, dev_out: Dev) -> None:
        self.stream = stream
        self.dev_in = dev_in
        self.dev_out = dev_out
        self.inflight: nx.Transfer[Host] | None = None
        self.at = 0  # where the chunk in flight goes in the block's output


# ---------------------------------------------------------------------------------------
# MERGE POINT (issue 16, `device=`): the only device-placing code of this example.
# ---------------------------------------------------------------------------------------
def _worker_device(worker_index: int, chunk: int, slots: int) -> tuple[int, list[Slot]]:
    """The device worker ``worker_index`` owns (``index % nx.device_count()``), and its
    slots allocated there with ``device=``: on a host with several GPUs each worker
    streams on its own (dask-cuda's alternative: one GPU per worker through
    ``CUDA_VISIBLE_DEVICES``, then every worker's device is 0)."""
    device = worker_index % nx.device_count()
    return device, [
        Slot(
            nx.stream(device=device),
            nx.device_array(chunk, np.float32, device=device),
            nx.device_array(chunk, np.float32, device=device),
        )
        for _ in range(slots)
    ]


class WorkerState:
    """Everything numbaxfer that one worker process owns: its device, its slots (stream +
    device buffers) and a pool of pinned buffers (page-locked once, reused by every
    task). Made by ``NumbaxferWorker.setup`` in the worker process; never pickled (its
    handles refuse it); closed by ``teardown``.

    Tasks of one worker stream one at a time (``lock``); the chunks of a task overlap
    across the slots: chunk c's upload, kernel and download run on slot c % slots while
    the next chunk is drawn into the next pooled buffer.
    """

    def __init__(self, worker_index: int, chunk: int, slots: int) -> None:
        self.worker_index = worker_index
        self.chunk = chunk
        self.device, self.slots = _worker_device(worker_index, chunk, slots)
        self.pool: nx.PinnedPool[np.float32] = nx.PinnedPool(slots, chunk, np.float32)
        self.lock = threading.Lock()
        self.blocks_run = 0

    def run(self, block: Block) -> BlockResult:
        """Stream ``block`` through this worker's GPU; return a plain copy of the result."""
        out = np.empty(block.chunks * self.chunk, np.float32)
        rng = np.random.default_rng(block.seed)
        with self.lock:
            try:
                for c in range(block.chunks):
                    slot = self.slots[c % len(self.slots)]
                    self._finish(slot, out)  # its previous chunk home: the buffer is free
                    self._start(slot, rng, c * self.chunk)
            finally:  # even on an error: every chunk in flight completes, buffers go back
                for slot in self.slots:
                    self._finish(slot, out)
            self.blocks_run += 1
        return BlockResult(block.number, out, os.getpid(), self.worker_index, self.device, id(self))

    def _start(self, slot: Slot, rng: np.random.Generator, at: int) -> None:
        buf = self.pool.take()  # a buffer no copy uses
        try:
            with buf.write() as a:
                fill_chunk(rng, a)  # drawn straight into pinned memory
            up = slot.stream.upload(buf, to=slot.dev_in)  # buf MOVES into the upload
        except BaseException:
            self.pool.give(buf)  # refused or interrupted before the move: buf is ours
            raise
        try:
            blocks, threads = grid_for(self.chunk)
            slot.stream.launch(affine, blocks, threads, slot.dev_in, slot.dev_out)
            slot.inflight = slot.stream.download(slot.dev_out, into=up)  # same buffer, back
        except BaseException:
            self.pool.recycle(up)  # the pool completes it once the copy has finished
            raise
        slot.at = at

    def _finish(self, slot: Slot, out: NDArray[np.float32]) -> None:
        if slot.inflight is not None:
            buf = slot.inflight.wait()  # this chunk's own event, not the stream
            slot.inflight = None
            out[slot.at : slot.at + self.chunk] = buf.read()  # the copy that goes home
            self.pool.give(buf)

    def close(self) -> None:
        """Close the streams (nothing is in flight between tasks)."""
        for slot in self.slots:
            slot.stream.close()


# Where distributed is not installed, mypy.ini lets its names be Any (so mypy still passes
# on a host without Dask): subclassing Any is then an error, hence this ignore.
class NumbaxferWorker(WorkerPlugin):  # type: ignore[misc,unused-ignore]
    """The worker plugin: made on the client from a description (chunk size, slot
    count), pickled to every worker, present and future; ``setup`` then makes that
    process's ``WorkerState``. Only these two ints cross processes."""

    name = PLUGIN_NAME

    def __init__(self, chunk: int, slots: int = 2) -> None:
        self.chunk = chunk
        self.slots = slots
        self.state: WorkerState | None = None

    def setup(self, worker: Worker) -> None:
        self.state = WorkerState(_worker_index(worker), self.chunk, self.slots)

    def teardown(self, worker: Worker) -> None:
        if self.state is not None:
            self.state.close()
            self.state = None


def _worker_index(worker: Worker) -> int:
    """The worker's index: LocalCluster names its workers 0, 1, ...; so does
    ``dask worker --name 0``."""
    name = worker.name
    if isinstance(name, int) or (isinstance(name, str) and name.isdigit()):
        return int(name)
    raise ValueError(
        f"worker {name!r} ({worker.address}): NumbaxferWorker picks a GPU from the worker's "
        "index; name the workers 0, 1, ... (LocalCluster does; `dask worker --name 0`)."
    )


def _worker_state(worker: Worker | None = None) -> WorkerState:
    """This worker's state (a task runs in a worker process, after the plugin's setup;
    ``get_worker()`` finds the worker of the task's thread)."""
    plugin = (worker or get_worker()).plugins.get(PLUGIN_NAME)
    if not isinstance(plugin, NumbaxferWorker) or plugin.state is None:
        raise RuntimeError(
            "this worker has no numbaxfer state: register the plugin first "
            f"(client.register_plugin(NumbaxferWorker(chunk)), name {PLUGIN_NAME!r})"
        )
    return plugin.state


def stream_block(block: Block) -> BlockResult:
    """A task: runs in a worker process on that worker's own GPU state."""
    return _worker_state().run(block)


def describe_worker(dask_worker: Worker) -> tuple[int, int, int, int, int]:
    """(pid, worker index, device, id of its state, blocks run): for ``client.run``,
    which runs it on every worker's event loop and passes the worker in."""
    state = _worker_state(dask_worker)
    return os.getpid(), state.worker_index, state.device, id(state), state.blocks_run


def _size_of(host: Host) -> int:
    return host.size  # never runs: the argument cannot be sent


def refused_handle_message(client: Client) -> str:
    """Send a pinned array to a worker: Dask pickles the task on the client, the handle
    refuses, nothing reaches a worker. Returns numbaxfer's message."""
    host = nx.pinned_array(4, np.float32)
    quiet = logging.getLogger("distributed.protocol.pickle")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # Dask logs the failed pickle; we show it instead
    try:
        client.submit(_size_of, host).result()
    except TypeError as exc:
        cause: BaseException | None = exc
        while cause is not None:  # Dask wraps it: "Could not serialize object ..."
            if "a numbaxfer PinnedArray is the one owner" in str(cause):
                return str(cause)
            cause = cause.__cause__ or cause.__context__
        raise
    finally:
        quiet.setLevel(level)
    raise AssertionError("a pinned array was sent to a worker")


class Report(NamedTuple):
    """What ``main()`` returns."""

    results: list[BlockResult]  # in block order
    workers: list[tuple[int, int, int, int, int]]  # describe_worker() of each worker
    refused: str  # numbaxfer's message for the handle sent to a worker


def _untyped(fn: object) -> Any:
    """The few distributed callables without annotations (LocalCluster, Client and
    Client.gather): called through Any here, their results typed where they land."""
    return fn


@contextmanager
def local_cluster(workers: int = 2, env: Mapping[str, str] | None = None) -> Iterator[Client]:
    """A client of a ``LocalCluster`` of ``workers`` worker processes, one thread each
    (``env``: extra environment variables of the worker processes)."""
    with (
        _untyped(LocalCluster)(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            env=dict(env or {}),
        ) as cluster,
        _untyped(Client)(cluster) as client,
    ):
        yield client


def run(client: Client, blocks: int = 6, chunks: int = 3, chunk: int = 256) -> Report:
    """Register the plugin, stream ``blocks`` blocks of ``chunks`` chunks on the
    cluster's workers, check them; try to send a handle."""
    if __name__ != "__main__":
        # Imported from a path the workers cannot import (examples/ is no package):
        # send this module's code by value (cloudpickle's switch for that case).
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
    client.register_plugin(NumbaxferWorker(chunk))
    work = [Block(i, chunks, seed=1000 + i) for i in range(blocks)]
    results: list[BlockResult] = _untyped(client.gather)(client.map(stream_block, work))
    described: dict[str, tuple[int, int, int, int, int]] = client.run(describe_worker)
    refused = refused_handle_message(client)
    for block, result in zip(work, results, strict=True):
        assert result.block == block.number
        assert np.array_equal(result.values, expected(block, chunk)), f"block {block.number}"
    return Report(results, sorted(described.values(), key=lambda w: w[1]), refused)


def main(workers: int = 2, blocks: int = 6, chunks: int = 3, chunk: int = 256) -> Report:
    """The example on a ``workers``-process LocalCluster (the workers inherit this
    process's environment: ``NUMBAXFER_BACKEND`` included)."""
    with local_cluster(workers) as client:
        return run(client, blocks, chunks, chunk)


if __name__ == "__main__":
    report = main()
    pids = sorted({r.pid for r in report.results})
    print(
        f"dask_streaming: right, {len(report.results)} blocks on {len(report.workers)} "
        f"workers (pids {pids}); a handle sent to a worker: refused"
    )
