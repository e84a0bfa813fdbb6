"""examples/dask_streaming.py: numbaxfer streaming inside the worker processes of a Dask
``LocalCluster`` (processes=True), on the lazy emulator (``NUMBAXFER_BACKEND=emulator``
in the workers' environment).

Checked from outside: the numbers of every block, that each worker process made its
numbaxfer state once and used only it, and that a numbaxfer handle cannot cross a process
boundary either way (an argument sent to a worker, a result sent back), with numbaxfer's
own message. Skipped where Dask's ``distributed`` is not installed (``pip install -e
'.[dev]'`` installs it).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

import numbaxfer as nx
from numbaxfer._backend._emulator import EmulatorBackend
from tests.examples.support import EXAMPLES_DIR, load

distributed = pytest.importorskip("distributed", reason="Dask's distributed is not installed")
cloudpickle = pytest.importorskip("cloudpickle")  # distributed's own dependency

WORKERS_ENV = {"NUMBAXFER_BACKEND": "emulator", "NUMBAXFER_EMULATOR_DEVICES": "2"}
#: numbaxfer's refusal (numbaxfer/_ownership.py, Unique._refuse_copy), not Dask's wrapper.
REFUSAL = "a numbaxfer PinnedArray is the one owner of its memory"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    module = load("dask_streaming")
    cloudpickle.register_pickle_by_value(module)  # as run() does: examples/ is no package
    return module


@pytest.fixture(scope="module")
def client(example: ModuleType) -> Iterator[Any]:
    """The example's LocalCluster: 2 worker processes on the emulator."""
    with example.local_cluster(2, WORKERS_ENV) as client:
        yield client


@pytest.fixture(scope="module")
def report(example: ModuleType, client: Any) -> Any:
    """One run of the example: 6 blocks of 3 chunks of 256."""
    return example.run(client, blocks=6, chunks=3, chunk=256)


def _affine_of_draws(seed: int, chunks: int, chunk: int) -> NDArray[np.float32]:
    """2 x + 1 of the block's data, drawn here independently of the example's helpers."""
    rng = np.random.default_rng(seed)
    draws = [rng.standard_normal(chunk, dtype=np.float32) for _ in range(chunks)]
    return np.float32(2.0) * np.concatenate(draws) + np.float32(1.0)


def test_every_block_is_right(report: Any) -> None:
    assert [r.block for r in report.results] == list(range(6))
    for r in report.results:
        assert r.values.dtype == np.float32 and r.values.shape == (3 * 256,)
        assert np.array_equal(r.values, _affine_of_draws(1000 + r.block, 3, 256)), r.block


def test_results_are_plain_numpy_copies(report: Any) -> None:
    for r in report.results:
        assert type(r.values) is np.ndarray and r.values.flags.writeable  # no read() view
        pickle.dumps(tuple(r))  # plain data (ints, an ndarray): it can go anywhere


def test_each_worker_process_made_its_state_once_and_used_only_it(report: Any) -> None:
    workers = report.workers  # describe_worker() of each: pid, index, device, state, runs
    assert [w[1] for w in workers] == [0, 1]
    pids = {w[0] for w in workers}
    assert len(pids) == 2 and os.getpid() not in pids  # separate processes
    # Today's API has one device per process (the current one): every worker on 0.
    # Two emulated devices: worker i streams on device i % 2.
    assert sorted(w[2] for w in workers) == [0, 1]
    state_of = {w[0]: w[3] for w in workers}
    for r in report.results:
        assert r.pid in pids and r.state_id == state_of[r.pid]
        assert (r.worker, r.device) == next((w[1], w[2]) for w in workers if w[0] == r.pid)
    assert sum(w[4] for w in workers) == len(report.results)  # every block ran once


def test_a_handle_sent_to_a_worker_is_refused_with_numbaxfers_message(report: Any) -> None:
    assert REFUSAL in report.refused
    assert report.refused.startswith("cannot pickle PinnedArray#")
    assert "send a description of it and allocate there" in report.refused


def _return_a_handle(n: int) -> Any:
    import numpy as np

    import numbaxfer as nx

    return nx.pinned_array(n, np.float32)  # made in the worker: it cannot leave


def test_a_handle_returned_by_a_task_cannot_leave_the_worker(report: Any, client: Any) -> None:
    future = client.submit(_return_a_handle, 4)
    with pytest.raises(TypeError, match="Could not serialize object of type PinnedArray") as e:
        future.result(timeout=30)
    assert "cannot pickle PinnedArray#" in str(e.value)  # the worker's traceback, sent back


@pytest.fixture
def emulated() -> Iterator[EmulatorBackend]:
    with nx.use_backend("emulator", schedule="lazy") as backend:
        assert isinstance(backend, EmulatorBackend)
        yield backend


def test_the_plugin_carries_a_description_and_the_state_stays_put(
    example: ModuleType, emulated: EmulatorBackend
) -> None:
    plugin = example.NumbaxferWorker(256, slots=2)
    assert vars(plugin) == {"chunk": 256, "slots": 2, "state": None}  # what goes to workers
    state = example.WorkerState(0, 256, 2)  # what setup() makes, here in this process
    try:
        # Pickled as Dask would: its streams refuse, so the state cannot leave its process.
        with pytest.raises(TypeError, match="cannot pickle Stream"):
            cloudpickle.dumps(state)
        result = state.run(example.Block(7, 2, seed=5))
        assert np.array_equal(result.values, _affine_of_draws(5, 2, 256))
        assert result.values.flags.owndata  # a fresh array, not the pool's pinned memory
        assert len(state.pool) == state.pool.count == 2  # every buffer back in the pool
        assert all(slot.inflight is None for slot in state.slots)
    finally:
        state.close()


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_a_task_failing_mid_block_leaves_nothing_in_flight(
    example: ModuleType, emulated: EmulatorBackend, monkeypatch: pytest.MonkeyPatch, error: type
) -> None:
    state = example.WorkerState(0, 256, 2)
    real_fill = example.WorkerState._start.__globals__["fill_chunk"]
    calls = []

    def fill_then_fail(rng: np.random.Generator, out: NDArray[np.float32]) -> None:
        calls.append(1)
        if len(calls) == 2:  # chunk 1: chunk 0's upload, kernel and download are queued
            raise error("reading the input failed")
        real_fill(rng, out)

    # The globals _start really uses: once a cluster has sent this module's classes back
    # by value, cloudpickle has rebuilt their methods over a copy of the module's globals.
    used = example.WorkerState._start.__globals__
    try:
        monkeypatch.setitem(used, "fill_chunk", fill_then_fail)
        with pytest.raises(error, match="reading the input failed"):
            state.run(example.Block(0, 3, seed=5))
        assert len(state.pool) == state.pool.count == 2  # chunk 0's buffer came home too
        assert all(slot.inflight is None for slot in state.slots)
        monkeypatch.setitem(used, "fill_chunk", real_fill)
        again = state.run(example.Block(1, 3, seed=6))  # the worker goes on, right
        assert np.array_equal(again.values, _affine_of_draws(6, 3, 256))
    finally:
        state.close()


def test_the_example_runs_as_a_script() -> None:
    root = str(EXAMPLES_DIR.parent)
    path = os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env = {**os.environ, **WORKERS_ENV, "PYTHONPATH": path}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES_DIR / "dask_streaming.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("dask_streaming: right, 6 blocks on 2 workers")
