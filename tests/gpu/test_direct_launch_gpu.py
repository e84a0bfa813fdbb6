"""The direct launch path on a real GPU: for a set of kernels (1-D and 2-D, C and F
order, int and float scalars of several widths, several arrays, parts at offsets), a
launch through the direct path gives the
same bytes as the same launch through numba's dispatcher, and the direct path was the
one taken. Counts print and, with NUMBAXFER_GPU_DIRECT=path, go to JSON."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, Literal

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from numbaxfer._backend import get_backend
from tests.gpu.support import numba_backend_and_report

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(
        os.environ.get("NUMBAXFER_FASTPATH", "1") == "0",
        reason="the direct launch path is the fast path's (NUMBAXFER_FASTPATH=0 turns it off)",
    ),
]

COUNTS: dict[str, Any] = {}


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[None]:
    yield from numba_backend_and_report("direct launch", "NUMBAXFER_GPU_DIRECT", COUNTS, {})


@cuda.jit
def affine_1d(src, dst, n):  # type: ignore[no-untyped-def]
    i = cuda.grid(1)
    if i < n:
        dst[i] = 2 * src[i] + 1


@cuda.jit
def scale_2d(a, out, s, b):  # type: ignore[no-untyped-def]
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] * s + b + i * 1000 + j


@cuda.jit
def mix3(a, b, c, k, w):  # type: ignore[no-untyped-def]
    i = cuda.grid(1)
    if i < c.shape[0]:
        c[i] = a[i] * k + b[i] * w + i


@cuda.jit
def ints(a, out, x8, x16, u32, x64):  # type: ignore[no-untyped-def]
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] + x8 + x16 * 3 + u32 * 5 + x64 * 7


def _directs_used() -> int:
    backend: Any = get_backend()
    return sum(type(d).__name__ == "_Direct" for d in backend._directs.values())


def _run(case: Callable[[nx.Stream[nx.Owned]], np.ndarray], direct: bool) -> np.ndarray:
    backend: Any = get_backend()
    backend._direct_on = direct
    try:
        s = nx.stream()
        out = case(s)
        s.close()
        return out
    finally:
        backend._direct_on = True


def _upload(s: nx.Stream[nx.Owned], a: np.ndarray) -> nx.DeviceArray[nx.Owned, Any]:
    order: Literal["C", "F"] = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    dev = nx.device_array(a.shape, a.dtype, order=order)
    host = s.upload(nx.pinned_copy(a), to=dev).wait()
    host.free()
    return dev


def _download(s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, Any]) -> np.ndarray:
    order: Literal["C", "F"] = "F" if dev._layout == "F" else "C"
    host = s.download(dev, into=nx.pinned_array(dev.shape, dev.dtype, order=order)).wait()
    out: np.ndarray = np.array(host.read(), order=order)
    return out


def case_1d(s: nx.Stream[nx.Owned]) -> np.ndarray:
    n = 100_003
    src = _upload(s, np.arange(n, dtype=np.float32))
    dst = nx.device_array(n, np.float32)
    for _ in range(3):  # the first launch compiles (numba); the next ones are direct
        s.launch(affine_1d, (n + 255) // 256, 256, src, dst, n)
    return _download(s, dst)


def case_2d(order: str) -> Callable[[nx.Stream[nx.Owned]], np.ndarray]:
    def case(s: nx.Stream[nx.Owned]) -> np.ndarray:
        a = np.asarray(np.arange(37 * 53, dtype=np.float64).reshape(37, 53), order=order)  # type: ignore[call-overload]
        dev = _upload(s, a)
        out = nx.device_array(a.shape, np.float64, order="F" if order == "F" else "C")
        for s_, b in ((2.5, np.float32(0.25)), (np.float64(-1.5), np.float32(3.0))):
            s.launch(scale_2d, (3, 4), (16, 16), dev, out, s_, b)
        return _download(s, out)

    return case


def case_parts(s: nx.Stream[nx.Owned]) -> np.ndarray:
    """Parts at offsets (first-axis slices of a C array, ragged last part): each
    launch gets the part's own pointer and shape."""
    a = np.arange(40 * 8, dtype=np.float32).reshape(40, 8)
    dev = _upload(s, a)
    out = nx.device_array(a.shape, np.float32)
    src_parts = nx.split(dev, 3)
    out_parts = nx.split(out, 3)
    for _ in range(2):
        for p, q in zip(src_parts, out_parts, strict=True):
            s.launch(scale_2d, (4, 1), (16, 16), p, q, np.float32(3.0), 0.5)
    whole = nx.join(out_parts)
    nx.join(src_parts).free()
    return _download(s, whole)


def case_three_arrays(s: nx.Stream[nx.Owned]) -> np.ndarray:
    n = 5000
    a = _upload(s, np.linspace(0, 1, n, dtype=np.float32))
    b = _upload(s, np.linspace(5, -3, n, dtype=np.float32))
    c = nx.device_array(n, np.float32)
    for k, w in ((2, 0.5), (-7, 1.25), (3, np.float64(2.0))):
        s.launch(mix3, 20, 256, a, b, c, k, w)
    return _download(s, c)


def case_ints(s: nx.Stream[nx.Owned]) -> np.ndarray:
    n = 1000
    a = _upload(s, np.arange(n, dtype=np.int64))
    out = nx.device_array(n, np.int64)
    for x64 in (1, -(2**40), 2**50):
        s.launch(ints, 4, 256, a, out, np.int8(-3), np.int16(300), np.uint32(4_000_000_000), x64)
    return _download(s, out)


CASES = {
    "1-D float32, int scalar": case_1d,
    "2-D C float64, float scalars": case_2d("C"),
    "2-D F float64, float scalars": case_2d("F"),
    "parts of a C array (offsets)": case_parts,
    "three arrays, int and float scalars": case_three_arrays,
    "int8/int16/uint32/int64 scalars": case_ints,
}


@pytest.mark.parametrize("name", list(CASES))
def test_direct_launch_matches_numba(name: str) -> None:
    case = CASES[name]
    before = _directs_used()
    direct = _run(case, direct=True)
    used = _directs_used() - before
    via_numba = _run(case, direct=False)
    COUNTS[name] = {"same bytes": bool(direct.tobytes() == via_numba.tobytes()), "new direct": used}
    assert direct.dtype == via_numba.dtype and direct.shape == via_numba.shape
    assert direct.tobytes() == via_numba.tobytes()


def test_direct_path_is_taken_and_numba_path_gives_the_reference() -> None:
    n = 4096
    s = nx.stream()
    src = _upload(s, np.arange(n, dtype=np.float32))
    dst = nx.device_array(n, np.float32)
    s.launch(affine_1d, 16, 256, src, dst, n)
    before = _directs_used()
    s.launch(affine_1d, 16, 256, src, dst, n)
    got = _download(s, dst)
    np.testing.assert_array_equal(got, 2 * np.arange(n, dtype=np.float32) + 1)
    backend: Any = get_backend()
    key_types = [d.types for d in backend._directs.values() if type(d).__name__ == "_Direct"]
    assert any(len(t) == 3 for t in key_types)
    assert _directs_used() >= before
    s.close()


def test_unsupported_arguments_fall_back_to_numba() -> None:
    """A bool scalar goes through numba's dispatcher, right."""

    @cuda.jit
    def flag(out, on):  # type: ignore[no-untyped-def]
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = 1.0 if on else 2.0

    s = nx.stream()
    out = nx.device_array(300, np.float32)
    for _ in range(2):
        s.launch(flag, (2,), (256,), out, True)
    np.testing.assert_array_equal(_download(s, out), np.ones(300, np.float32))
    backend: Any = get_backend()
    assert not any(
        type(d).__name__ == "_Direct" and d.dispatcher is flag for d in backend._directs.values()
    )
    s.close()


def test_launch_errors_are_numbas() -> None:
    """A block too large for the device: the driver refuses the direct launch and the
    error raised is the one numba raises for the same launch."""
    n = 64
    s = nx.stream()
    src = _upload(s, np.arange(n, dtype=np.float32))
    dst = nx.device_array(n, np.float32)
    s.launch(affine_1d, 1, 64, src, dst, n)  # compiled; direct from now on
    s.launch(affine_1d, 1, 64, src, dst, n)
    with pytest.raises(Exception) as direct_error:
        s.launch(affine_1d, 1, 4096, src, dst, n)
    s.synchronize()
    raw_src, raw_dst, raw_s = (
        cuda.device_array(n, np.float32),
        cuda.device_array(n, np.float32),
        cuda.stream(),
    )
    with pytest.raises(Exception) as numba_error:
        affine_1d[1, 4096, raw_s](raw_src, raw_dst, n)
    assert type(direct_error.value) is type(numba_error.value)
    assert str(direct_error.value) == str(numba_error.value)
    s.close()
