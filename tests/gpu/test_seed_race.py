"""The seed race on a real GPU: raw numba-cuda corrupts, numbaxfer refuses or is right.

1,000,000 float32 per buffer and TRIALS trials per variant (the H200 finishes a
10,000-element copy before Python's next line, so small buffers show nothing). Counts
are printed and, with NUMBAXFER_GPU_RESULTS=path, written as JSON for RESULTS.md.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from tests.gpu.support import numba_backend_and_report

pytestmark = pytest.mark.gpu

N = 1_000_000
TRIALS = 50
COUNTS: dict[str, dict[str, int]] = {}


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[None]:
    yield from numba_backend_and_report(
        "seed race", "NUMBAXFER_GPU_RESULTS", COUNTS, {"n": N, "trials": TRIALS}
    )


def record(name: str, **counts: int) -> None:
    COUNTS[name] = {"trials": TRIALS, **counts}


# -- host write after an async upload ------------------------------------------------------
def test_raw_numba_upload_then_host_write_corrupts() -> None:
    s = cuda.stream()
    host = cuda.pinned_array(N, np.float32)
    dev = cuda.device_array(N, np.float32)
    corrupted = 0
    for _ in range(TRIALS):
        host[:] = 1.0
        dev.copy_to_device(host, stream=s)  # async: the DMA reads `host` later
        host[-1] = 2.0  # numba lets this race the copy
        s.synchronize()
        corrupted += int(dev[-1:].copy_to_host()[0] != 1.0)
    record("raw numba: upload, then host write", corrupted=corrupted)
    assert corrupted > 0, "the race did not show: is the copy synchronous here?"


def test_numbaxfer_refuses_the_write_at_the_offending_line() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = nx.pinned_array(N, np.float32)
    check = nx.pinned_array(N, np.float32)
    refused = intact = 0
    for _ in range(TRIALS):
        with host.write() as a:
            a[:] = 1.0
        up = s.upload(host, to=dev)
        try:
            line = sys._getframe().f_lineno + 1
            with host.write() as a:  # type: ignore[use-after-transfer]
                a[-1] = 2.0
        except nx.UseAfterTransferError as e:
            tb = e.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename != __file__:
                tb = tb.tb_next
            assert tb is not None and tb.tb_lineno == line
            refused += 1
        host = up.wait()
        check = s.download(dev, into=check).wait()
        intact += int(check.read()[-1] == 1.0)
    record("numbaxfer: the same program", refused=refused, device_intact=intact)
    assert refused == TRIALS and intact == TRIALS


def test_numbaxfer_corrected_upload_is_right_every_trial() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    out = nx.pinned_array(N, np.float32)
    host = nx.pinned_array(N, np.float32)
    right = 0
    for trial in range(TRIALS):
        with host.write() as a:
            a[:] = float(trial)
        up = s.upload(host, to=dev)
        host = up.wait()  # ownership back: the copy has read everything
        with host.write() as a:
            a[-1] = -1.0
        out = s.download(dev, into=out).wait()
        right += int((out.read() == float(trial)).all())
    record("numbaxfer: corrected upload (wait, then write)", right=right)
    assert right == TRIALS


# -- early read of a download destination --------------------------------------------------
def _fill_device(dev: Any, value: float, stream: Any) -> None:
    fill[(N + 255) // 256, 256, stream](dev, value)


@cuda.jit
def fill(a: Any, value: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = value


def test_raw_numba_early_read_of_download_is_stale() -> None:
    s = cuda.stream()
    dev = cuda.device_array(N, np.float32)
    out = cuda.pinned_array(N, np.float32)
    stale = 0
    for trial in range(TRIALS):
        out[:] = -1.0
        _fill_device(dev, float(trial), s)
        dev.copy_to_host(out, stream=s)  # async
        stale += int(out[-1] != float(trial))  # numba lets us read at once
        s.synchronize()
    record("raw numba: download, then early read", stale=stale)
    assert stale > 0, "the race did not show: is the copy synchronous here?"


def test_numbaxfer_refuses_the_early_read_and_the_corrected_read_is_right() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    out = nx.pinned_array(N, np.float32)
    refused = right = 0
    for trial in range(TRIALS):
        with out.write() as a:
            a[:] = -1.0
        s.launch(fill, (N + 255) // 256, 256, dev, float(trial))
        down = s.download(dev, into=out)
        try:
            out.read()  # type: ignore[use-after-transfer]
        except nx.UseAfterTransferError:
            refused += 1
        out = down.wait()
        right += int((out.read() == float(trial)).all())
    record("numbaxfer: download, early read / read after wait", refused=refused, right=right)
    assert refused == TRIALS and right == TRIALS


def test_dropped_transfer_keeps_host_memory_until_the_copy_finishes() -> None:
    import gc
    import warnings
    import weakref

    from numbaxfer._lifetime import _orphans, orphan_count

    big = 256 * N  # 1 GB: ~20 ms on the copy engine, long enough to look
    s = nx.stream()
    dev = nx.device_array(big, np.float32)
    host = nx.pinned_array(big, np.float32)
    buffer = weakref.ref(host._buf)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        s.upload(host, to=dev)  # type: ignore[unfinished-transfer]  # dropped at once: the warning fires here
        del host
    copying = not _orphans[-1][0].query(_orphans[-1][1])
    alive = buffer() is not None
    assert any(issubclass(w.category, ResourceWarning) for w in caught)
    s.synchronize()
    assert orphan_count() == 0
    gc.collect()
    record("dropped transfer: kept alive while copying", copying=int(copying), alive=int(alive))
    assert alive and buffer() is None
