"""Ownership-checked CUDA graphs on a real GPU (``nx.capture``, ``Graph.replay``).

Right results for one and two captured streams, copy nodes re-pointed for other
buffers, cross-stream ordering after a replay, and the race between replays: a raw
cuda.bindings graph whose host buffer is written while a replay runs gives a corrupted
upload; numbaxfer refuses the write at its line. N float32, TRIALS trials. Counts
print and, with NUMBAXFER_GPU_GRAPHS=path, go to JSON.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from tests.gpu.support import numba_backend_and_report
from tests.kernels import affine

pytestmark = pytest.mark.gpu

N = 4_000_000
TRIALS = 20
COUNTS: dict[str, dict[str, int]] = {}
affine_k = nx.kernel(reads=["src"], writes=["dst"])(affine)


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[None]:
    yield from numba_backend_and_report(
        "graphs", "NUMBAXFER_GPU_GRAPHS", COUNTS, {"n": N, "trials": TRIALS}
    )


def _fill(host: nx.PinnedArray[nx.Owned, Any], values: Any) -> None:
    with host.write() as a:
        a[:] = values


def _grid(n: int) -> int:
    return (n + 255) // 256


def test_one_stream_right_and_other_buffers_update_the_copies() -> None:
    n = 1 << 20
    s = nx.stream()
    hin, hout = nx.pinned_array(n, np.float32), nx.pinned_array(n, np.float32)
    din, dout = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    affine[_grid(n), 256](cuda.device_array(1, np.float32), cuda.device_array(1, np.float32))
    with nx.capture(s) as cap:
        up = s.upload(hin, to=din)
        s.launch(affine_k, _grid(n), 256, din, dout)
        dn = s.download(dout, into=hout)
    graph = cap.graph
    hin, hout = up.wait(), dn.wait()
    other_in, other_out = nx.pinned_array(n, np.float32), nx.pinned_array(n, np.float32)
    for r in range(4):
        _fill(hin, np.arange(n) + r)
        _fill(other_in, -np.arange(n) - r)
        hin, hout = graph.replay(hin, hout).wait()
        np.testing.assert_array_equal(hout.read(), 2 * (np.arange(n) + r) + 1)
        other_in, other_out = graph.replay(other_in, other_out).wait()
        np.testing.assert_array_equal(other_out.read(), 2 * (-np.arange(n) - r) + 1)
    graph.close()
    s.close()


def test_two_streams_parts_right_and_ordered_for_another_stream() -> None:
    n = 1 << 20
    s1, s2, s3 = nx.stream(), nx.stream(), nx.stream()
    hin, hout = nx.pinned_array(n, np.float32), nx.pinned_array(n, np.float32)
    din, dout = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    pin, pout = nx.split(hin, 2), nx.split(hout, 2)
    dins, douts = nx.split(din, 2), nx.split(dout, 2)
    with nx.capture(s1, s2) as cap:
        ups, downs = [], []
        for k, s in enumerate((s1, s2)):
            ups.append(s.upload(pin[k], to=dins[k]))
            other = (s2, s1)[k]  # the kernel on the other stream: a cross-stream edge
            other.launch(affine_k, _grid(n // 2), 256, dins[k], douts[k])
            downs.append(other.download(douts[k], into=pout[k]))
    graph = cap.graph
    hin = nx.join([u.wait() for u in ups])
    hout = nx.join([d.wait() for d in downs])
    out2 = nx.pinned_array(n // 2, np.float32)
    for r in range(3):
        _fill(hin, np.arange(n) * (r + 1))
        run = graph.replay(hin, hout)
        # douts[1] was written by the replay on s1: s3 is ordered after it on the device
        down = s3.download(douts[1], into=out2)
        hin, hout = run.wait()
        out2 = down.wait()
        want = 2 * (np.arange(n) * (r + 1)) + 1
        np.testing.assert_array_equal(hout.read(), want)
        np.testing.assert_array_equal(out2.read(), want[n // 2 :])
    graph.close()
    for s in (s1, s2, s3):
        s.close()


def _raw_graph(drv: Any, host: Any, dev: Any, stream: Any) -> Any:
    """A raw cuda.bindings graph: one captured upload of ``host`` into ``dev``."""
    h = int(stream.handle)
    (err,) = drv.cuStreamBeginCapture(h, drv.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED)
    assert not err
    dptr = int(dev.__cuda_array_interface__["data"][0])
    (err,) = drv.cuMemcpyHtoDAsync(dptr, host.ctypes.data, host.nbytes, h)
    assert not err
    err, graph = drv.cuStreamEndCapture(h)
    assert not err
    err, exe = drv.cuGraphInstantiate(graph, 0)
    assert not err
    return graph, exe


def test_raw_graph_buffer_written_while_a_replay_runs_corrupts() -> None:
    from cuda.bindings import driver as drv

    s = cuda.stream()
    host = cuda.pinned_array(N, np.float32)
    dev = cuda.device_array(N, np.float32)
    graph, exe = _raw_graph(drv, host, dev, s)
    corrupted = 0
    for _ in range(TRIALS):
        host[:] = 1.0
        (err,) = drv.cuGraphLaunch(exe, int(s.handle))
        assert not err
        host[-1] = 2.0  # the program goes on with its buffer: the replay still reads it
        s.synchronize()
        corrupted += int(dev[N - 1 : N].copy_to_host()[0] != 1.0)
    drv.cuGraphExecDestroy(exe)
    drv.cuGraphDestroy(graph)
    COUNTS["raw cuda.bindings graph: host written while a replay runs"] = {
        "trials": TRIALS,
        "corrupted": corrupted,
    }
    assert corrupted > 0, "the race did not show"


def test_numbaxfer_refuses_the_write_between_replays_and_is_right() -> None:
    s = nx.stream()
    host, dev = nx.pinned_array(N, np.float32), nx.device_array(N, np.float32)
    out = nx.pinned_array(N, np.float32)
    with nx.capture(s) as cap:
        up = s.upload(host, to=dev)
        dn = s.download(dev, into=out)
    graph = cap.graph
    host, out = up.wait(), dn.wait()
    refused = right = 0
    for _ in range(TRIALS):
        _fill(host, 1.0)
        run = graph.replay(host, out)
        try:
            with host.write() as a:  # type: ignore[use-after-transfer]
                a[-1] = 2.0
        except nx.UseAfterTransferError:
            refused += 1
        host, out = run.wait()
        right += int((out.read() == 1.0).all())
    graph.close()
    s.close()
    COUNTS["numbaxfer graph: host written while a replay runs"] = {
        "trials": TRIALS,
        "refused": refused,
        "right": right,
    }
    assert refused == TRIALS and right == TRIALS
