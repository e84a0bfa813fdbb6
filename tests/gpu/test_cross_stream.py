"""Cross-stream patterns on a real GPU: raw numba races, numbaxfer orders on the device.

A slow kernel on stream A writes an array; stream B downloads it (or a kernel on B
reads it). Raw numba lets B run at once; numbaxfer makes B wait for A's event.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from tests.kernels import slow_fill

pytestmark = pytest.mark.gpu

N = 1 << 20
TRIALS = 20
SPIN = 20_000  # a few ms of kernel time
GRID, BLOCK = (N + 255) // 256, 256
fill = nx.kernel(writes=["a"])(slow_fill)
COUNTS: dict[str, int] = {}


def test_raw_numba_download_on_another_stream_is_stale() -> None:
    a, b = cuda.stream(), cuda.stream()
    dev = cuda.device_array(N, np.float32)
    out = cuda.pinned_array(N, np.float32)
    stale = 0
    for trial in range(TRIALS):
        slow_fill[GRID, BLOCK, a](dev, float(trial + 1), SPIN)
        dev.copy_to_host(out, stream=b)  # B does not wait for A
        b.synchronize()
        a.synchronize()
        stale += int(out[-1] != float(trial + 1))
    COUNTS["raw numba: download on B of A's output, stale"] = stale
    print(f"\nraw numba cross-stream download: stale in {stale}/{TRIALS}", file=sys.stderr)
    assert stale > 0, "the race did not show"


def test_numbaxfer_download_on_another_stream_is_right() -> None:
    a, b = nx.stream(), nx.stream()
    dev = nx.device_array(N, np.float32)
    out = nx.pinned_array(N, np.float32)
    right = 0
    for trial in range(TRIALS):
        a.launch(fill, GRID, BLOCK, dev, float(trial + 1), SPIN)
        out = b.download(dev, into=out).wait()  # B waits for A's event, on the device
        right += int((out.read() == float(trial + 1)).all())
    print(f"numbaxfer cross-stream download: right in {right}/{TRIALS}", file=sys.stderr)
    assert right == TRIALS


def test_free_while_a_kernel_runs_is_deferred() -> None:
    import gc
    import weakref

    from numbaxfer._lifetime import _orphans, orphan_count

    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    s.launch(fill, GRID, BLOCK, dev, 1.0, SPIN * 50)  # tens of ms
    memory: Any = weakref.ref(dev._buf.array if hasattr(dev._buf, "array") else dev._buf)
    dev.free()
    backend, event, _kept = _orphans[-1]
    del _kept
    running = not backend.query(event)
    held = memory() is not None
    s.synchronize()
    assert orphan_count() == 0
    gc.collect()
    assert running, "the kernel finished before the check: make it longer"
    assert held and memory() is None


def test_lent_array_interface_feeds_numba_consumer() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    s.launch(fill, GRID, BLOCK, dev, 4.0, SPIN)
    with dev.lend() as view:
        cai = view.__cuda_array_interface__
        assert cai["version"] == 3 and cai["stream"] == int(s._core.raw.handle)
        consumer = cuda.as_cuda_array(view)  # numba consumer: syncs on cai["stream"]
        host = consumer.copy_to_host()
    assert (host == 4.0).all()
