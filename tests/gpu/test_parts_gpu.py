"""Owned parts, chained transfers, staged uploads and in-place mapping on a real GPU.

The race: one pinned buffer split into slices uploaded on two streams; the program
writes a slice whose copy is in flight. Raw numba corrupts the copy; numbaxfer refuses
the write at its line, lets the sibling slice be written, and is right. N float32,
TRIALS trials. Counts print and, with NUMBAXFER_GPU_PARTS=path, go to JSON.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from tests.gpu.support import numba_backend_and_report
from tests.kernels import add_one

pytestmark = pytest.mark.gpu

N = 4_000_000
TRIALS = 20
COUNTS: dict[str, dict[str, int]] = {}


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[None]:
    yield from numba_backend_and_report(
        "parts", "NUMBAXFER_GPU_PARTS", COUNTS, {"n": N, "trials": TRIALS}
    )


def test_raw_numba_slice_written_while_its_copy_runs_corrupts() -> None:
    s1, s2 = cuda.stream(), cuda.stream()
    host = cuda.pinned_array(N, np.float32)
    dev = cuda.device_array(N, np.float32)
    half = N // 2
    corrupted = 0
    for _ in range(TRIALS):
        host[:] = 1.0
        dev[:half].copy_to_device(host[:half], stream=s1)
        host[half - 1] = 2.0  # the end of slice 0, in flight on s1
        dev[half:].copy_to_device(host[half:], stream=s2)
        s1.synchronize()
        s2.synchronize()
        corrupted += int(dev[half - 1 : half].copy_to_host()[0] != 1.0)
    COUNTS["raw numba: slice written while its upload runs"] = {
        "trials": TRIALS,
        "corrupted": corrupted,
    }
    assert corrupted > 0, "the race did not show"


def test_numbaxfer_refuses_the_part_in_flight_and_is_right() -> None:
    s1, s2 = nx.stream(), nx.stream()
    host, dev = nx.pinned_array(N, np.float32), nx.device_array(N, np.float32)
    out = nx.pinned_array(N, np.float32)
    refused = right = 0
    for _ in range(TRIALS):
        with host.write() as a:
            a[:] = 1.0
        (h1, h2), (d1, d2) = nx.split(host, 2), nx.split(dev, 2)
        up1 = s1.upload(h1, to=d1)
        try:
            with h1.write() as a:  # type: ignore[use-after-transfer]
                a[-1] = 2.0
        except nx.UseAfterTransferError:
            refused += 1
        with h2.write() as b:  # the sibling: the caller's to write
            b[:] = 3.0
        up2 = s2.upload(h2, to=d2)
        host = nx.join([up1.wait(), up2.wait()])
        dev = nx.join([d1, d2])
        out = s1.download(dev, into=out).wait()
        v = out.read()
        right += int((v[: N // 2] == 1.0).all() and (v[N // 2 :] == 3.0).all())
    s1.close()
    s2.close()
    COUNTS["numbaxfer: part written while its upload runs"] = {
        "trials": TRIALS,
        "refused": refused,
        "right": right,
    }
    assert refused == right == TRIALS


def test_chained_round_trip_staged_upload_and_in_place_mapping() -> None:
    s, t = nx.stream(), nx.stream()
    host, dev = nx.pinned_array(N, np.float32), nx.device_array(N, np.float32)
    grid = (N + 255) // 256
    chained = staged = mapped = 0
    for i in range(TRIALS):
        with host.write() as a:
            a[:] = float(i)
        up = s.upload(host, to=dev)
        t.launch(add_one, grid, 256, dev)  # another stream: ordered by an event wait
        host = t.download(dev, into=up).wait()  # no host wait between the two copies
        chained += int((host.read() == i + 1.0).all())
        src = np.full(1024, float(i), np.float32)
        small = nx.device_array(1024, np.float32)
        s.upload_staged(src, to=small).wait()
        src[:] = -1.0
        back = s.download(small, into=nx.pinned_array(1024, np.float32)).wait()
        staged += int((back.read() == float(i)).all())
        a = np.full(4096, float(i), np.float32)
        with nx.mapped(a) as m:
            mp = s.map(m)
            s.launch(add_one, 16, 256, mp.device)
            m = mp.wait()
        mapped += int((a == i + 1.0).all())
    s.close()
    t.close()
    COUNTS["numbaxfer: chained upload -> kernel on another stream -> download"] = {
        "trials": TRIALS,
        "right": chained,
    }
    COUNTS["numbaxfer: upload_staged, source reused at once"] = {"trials": TRIALS, "right": staged}
    COUNTS["numbaxfer: nx.mapped in place, kernel, wait"] = {"trials": TRIALS, "right": mapped}
    assert chained == staged == mapped == TRIALS
