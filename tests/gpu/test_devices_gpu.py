"""Several GPUs on one host, on the real driver.

On any GPU host: device 0 works through ``device=0``, and a device past the last one is
refused with the count in the message. With two or more GPUs (skipped otherwise): a peer
copy is right and its bandwidth is reported (peer or staged route, whichever the pair
has); and the cross-device race: a slow kernel on GPU 0 writes an array, GPU 1 copies
it at once. Raw numba (no ordering) copies stale data; numbaxfer orders GPU 1's copy
after GPU 0's kernel by an event wait on the device. TRIALS trials at 4M float32.
Counts are printed and, with NUMBAXFER_GPU_DEVICES_RESULTS=path, written as JSON.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from tests.gpu.support import numba_backend_and_report
from tests.kernels import slow_fill

pytestmark = pytest.mark.gpu

N = 4 << 20
TRIALS = 20
SPIN = 20_000  # a few ms of kernel time
GRID, BLOCK = (N + 255) // 256, 256
fill = nx.kernel(writes=["a"])(slow_fill)
COUNTS: dict[str, Any] = {}


def gpus() -> int:
    return len(cuda.gpus) if cuda.is_available() else 0


two_gpus = pytest.mark.skipif(gpus() < 2, reason="needs two GPUs on one host")


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[None]:
    yield from numba_backend_and_report(
        "devices", "NUMBAXFER_GPU_DEVICES_RESULTS", COUNTS, {"n": N, "trials": TRIALS}
    )


def test_device_0_works_and_the_next_device_is_refused() -> None:
    count = nx.device_count()
    assert count == gpus()
    s = nx.stream(device=0)
    dev = nx.device_array(N, np.float32, device=0)
    host = nx.pinned_copy(np.arange(N, dtype=np.float32))
    host = s.upload(host, to=dev).wait()
    out = s.download(dev, into=nx.pinned_array(N, np.float32)).wait()
    assert s.device == dev.device == 0 and (out.read() == host.read()).all()
    with pytest.raises(ValueError, match=rf"device={count} does not exist: .* has {count} "):
        nx.device_array(N, np.float32, device=count)
    with pytest.raises(ValueError, match=rf"device={count} does not exist"):
        nx.stream(device=count)
    COUNTS["device_count"] = count


@two_gpus
def test_peer_copy_is_right_and_its_bandwidth() -> None:
    s0, s1 = nx.stream(), nx.stream(device=1)
    a = nx.device_array(N, np.float32)
    b = nx.device_array(N, np.float32, device=1)
    host = s0.upload(nx.pinned_copy(np.arange(N, dtype=np.float32)), to=a).wait()
    t = s1.copy(a, to=b)
    route = t.route
    t.wait()
    out = s1.download(b, into=nx.pinned_array(N, np.float32)).wait()
    assert (out.read() == host.read()).all()
    samples = []
    for _ in range(10):
        t0 = time.perf_counter()
        s1.copy(a, to=b).wait()
        samples.append(time.perf_counter() - t0)
    gbps = a.nbytes / sorted(samples)[len(samples) // 2] / 1e9
    COUNTS["peer copy"] = {"route": route, "GB/s (median of 10)": round(gbps, 2)}
    print(f"\npeer copy 0 -> 1 ({route}): {gbps:.1f} GB/s", file=sys.stderr)


@two_gpus
def test_raw_numba_cross_device_copy_is_stale() -> None:
    a = cuda.device_array(N, np.float32)  # on device 0
    s0 = cuda.stream()
    with cuda.gpus[1]:
        b = cuda.device_array(N, np.float32)
        s1 = cuda.stream()
    out = cuda.pinned_array(N, np.float32)
    stale = 0
    for trial in range(TRIALS):
        slow_fill[GRID, BLOCK, s0](a, float(trial + 1), SPIN)  # GPU 0 writes a
        with cuda.gpus[1]:
            b.copy_to_device(a, stream=s1)  # GPU 1 copies it at once: no ordering
            b.copy_to_host(out, stream=s1)
            s1.synchronize()
        s0.synchronize()
        stale += int(out[-1] != float(trial + 1))
    COUNTS["raw numba: GPU 1 copies GPU 0's output, stale"] = stale
    assert stale > 0, "the race did not show"


@two_gpus
def test_numbaxfer_cross_device_copy_is_right() -> None:
    s0, s1 = nx.stream(), nx.stream(device=1)
    a = nx.device_array(N, np.float32)
    b = nx.device_array(N, np.float32, device=1)
    out = nx.pinned_array(N, np.float32)
    right = 0
    for trial in range(TRIALS):
        s0.launch(fill, GRID, BLOCK, a, float(trial + 1), SPIN)
        s1.copy(a, to=b)  # GPU 1 waits for GPU 0's event, on the device
        out = s1.download(b, into=out).wait()
        right += int((out.read() == float(trial + 1)).all())
    COUNTS["numbaxfer: GPU 1 copies GPU 0's output, right"] = right
    assert right == TRIALS


@two_gpus
def test_pipeline_over_two_gpus_is_right() -> None:
    data = np.arange(N, dtype=np.float32)
    pipe = nx.Pipeline(N // 8, np.float32, slots=2, devices=2)
    src, dst = nx.pinned_copy(data), nx.pinned_array(N, np.float32)

    def step(s: nx.Stream[nx.Lent], x: Any, y: Any) -> None:
        s.copy(x, to=y)

    src, dst = pipe.map(src, into=dst, step=step).wait()
    assert (dst.read() == data).all()
    pipe.close()
