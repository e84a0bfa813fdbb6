"""Issue 10, class 3: a refused call changes nothing. When numba (or any backend call)
refuses an operation, every handle and all cross-stream bookkeeping is as before."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.adversarial.conftest import Wrapper
from tests.kernels import add_one

N = 64
F32 = np.float32


def _written_on_strict() -> tuple[
    nx.Stream[nx.Owned], nx.Stream[nx.Owned], nx.DeviceArray[nx.Owned, np.float32]
]:
    """`d` holds ones, written on strict stream `s`; `t` is a second, plain stream."""
    s = nx.stream(strict=True)
    t = nx.stream()
    d = nx.device_array(N, F32)
    h = nx.pinned_array(N, F32)
    with h.write() as a:
        a[:] = 1.0
    s.upload(h, to=d).wait()
    return s, t, d


def _strict_stream_still_owns(s: nx.Stream[nx.Owned], d: nx.DeviceArray[nx.Owned, Any]) -> None:
    s.launch(add_one, 1, N, d)  # CrossStreamError if the refused call re-homed `d`
    out = s.download(d, into=nx.pinned_array(N, F32)).wait()
    np.testing.assert_array_equal(out.read(), 2.0)


@pytest.mark.parametrize("how", ["too many arguments", "too few arguments", "bad scalar"])
def test_launch_numba_refuses_leaves_cross_stream_state(numba_backend: Any, how: str) -> None:
    """Class 3 (state changed by a refused call): `d` written on strict `s`; a launch
    of `d` on `t` that numba refuses (TypeError) must not record `t` as `d`'s writer:
    `s` can still use `d` without CrossStreamError."""
    s, t, d = _written_on_strict()
    args: tuple[Any, ...] = {
        "too many arguments": (d, d),
        "too few arguments": (),
        "bad scalar": (d, object()),
    }[how]
    try:
        t.launch(add_one, 1, N, *args)
    except nx.OwnershipError:
        raise
    except Exception:
        pass  # numba refused it, as intended
    else:  # numba-cuda on a GPU dispatches some of these without complaint
        t.synchronize()
        s.close()
        t.close()
        pytest.skip(f"numba accepted a launch with {how} here: nothing was refused")
    _strict_stream_still_owns(s, d)
    s.close()
    t.close()


@pytest.mark.parametrize("method", ["launch", "wait_event", "record"])
def test_failed_launch_backend_call_leaves_cross_stream_state(wrap: Wrapper, method: str) -> None:
    """Class 3 (state changed by a refused call): any backend call failing inside a
    launch on `t` (the launch itself, or the event wait numbaxfer inserts) leaves `d`'s
    bookkeeping as it was: strict `s` can still use it."""
    s, t, d = _written_on_strict()
    wrap.fail(method, RuntimeError(f"injected {method} failure"))
    with pytest.raises(RuntimeError, match="injected"):
        t.launch(add_one, 1, N, d)
    _strict_stream_still_owns(s, d)
    s.close()
    t.close()


@pytest.mark.parametrize("method", ["copy_htod", "wait_event", "record"])
def test_failed_upload_leaves_src_and_cross_stream_state(wrap: Wrapper, method: str) -> None:
    """Class 3 (state changed by a refused call): an upload on `t` into `d` whose backend
    call fails: `src` is usable again (data intact) and `d` still belongs to strict `s`."""
    s, t, d = _written_on_strict()
    src = nx.pinned_array(N, F32)
    with src.write() as a:
        a[:] = 7.0
    wrap.fail(method, RuntimeError(f"injected {method} failure"))
    with pytest.raises(RuntimeError, match="injected"):
        t.upload(src, to=d)
    assert float(src.read()[0]) == 7.0
    _strict_stream_still_owns(s, d)
    t.upload(src, to=nx.device_array(N, F32)).wait()
    s.close()
    t.close()


@pytest.mark.parametrize("method", ["copy_dtod", "wait_event", "record"])
def test_failed_device_copy_leaves_cross_stream_state(wrap: Wrapper, method: str) -> None:
    """Class 3 (state changed by a refused call): `t.copy(d, to=e)` failing in the
    backend must not mark `d` as read on `t` (and `e` as written there)."""
    s, t, d = _written_on_strict()
    e = nx.device_array(N, F32)
    wrap.fail(method, RuntimeError(f"injected {method} failure"))
    with pytest.raises(RuntimeError, match="injected"):
        t.copy(d, to=e)
    _strict_stream_still_owns(s, d)
    s.copy(d, to=e).wait()  # `e` was not re-homed on `t` either
    s.close()
    t.close()


def test_failed_free_leaves_the_array_usable(wrap: Wrapper) -> None:
    """Class 3 (state changed by a refused call): `d.free()` whose backend event record
    fails leaves `d` as it was (not freed, its memory not dropped)."""
    s, t, d = _written_on_strict()
    wrap.fail("record", RuntimeError("injected record failure"))
    with pytest.raises(RuntimeError, match="injected"):
        d.free()
    _strict_stream_still_owns(s, d)
    s.close()
    t.close()


@pytest.mark.parametrize("method", ["copy_htod", "copy_dtoh", "launch", "record"])
def test_failed_pipeline_enqueue_gives_arrays_back(wrap: Wrapper, method: str) -> None:
    """Class 3 (state changed by a refused call): a backend call failing while
    `Pipeline.map` enqueues a chunk: `src` and `into` are the caller's again."""
    pipe = nx.Pipeline(16, F32, slots=2)
    src = nx.pinned_array(N, F32)
    with src.write() as a:
        a[:] = 4.0
    dst = nx.pinned_array(N, F32)
    wrap.fail(method, RuntimeError(f"injected {method} failure"), skip=2)
    with pytest.raises(RuntimeError, match="injected"):
        pipe.map(src, into=dst, step=lambda s, a, b: s.launch(add_one, 1, 16, a))
    assert float(src.read()[0]) == 4.0
    dst.read()
    pipe.close()


def test_failed_close_leaves_the_stream_open(wrap: Wrapper) -> None:
    """Class 3 (state changed by a refused call): `s.close()` whose backend call fails
    leaves the stream open and usable, and closable afterwards."""
    s = nx.stream()
    wrap.fail("close_stream", RuntimeError("injected close failure"))
    with pytest.raises(RuntimeError, match="injected"):
        s.close()
    assert not s.closed
    s.upload(nx.pinned_array(N, F32), to=nx.device_array(N, F32)).wait()
    s.close()
