"""DESIGN.md's rules on the numba backend: numba's simulator on CPU, the GPU on a GPU host.

Each test fails if its rule is switched off: the check would not raise, or the state
after the refused call would differ.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.kernels import add_one

N = 1024


def filled(value: float, n: int = N) -> nx.PinnedArray[nx.Owned, np.float32]:
    host = nx.pinned_array(n, np.float32)
    with host.write() as a:
        a[:] = value
    return host


def line_of(exc: pytest.ExceptionInfo[BaseException]) -> int:
    """The line of this test file where the exception surfaced."""
    tb: TracebackType | None = exc.tb
    line = -1
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == __file__:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def here() -> int:
    return sys._getframe(1).f_lineno


# -- rule 1: a consuming call moves its argument --------------------------------------
MOVED_USES: dict[str, Callable[[Any, nx.Stream[nx.Owned], Any], object]] = {
    "read": lambda h, s, d: h.read(),
    "write": lambda h, s, d: h.write(),
    "lend": lambda h, s, d: h.lend(),
    "upload again": lambda h, s, d: s.upload(h, to=d),
    "download into": lambda h, s, d: s.download(d, into=h),
    "free": lambda h, s, d: h.free(),
}


@pytest.mark.parametrize("use", MOVED_USES)
@pytest.mark.parametrize("kind", ["upload", "download"])
def test_every_use_of_a_moved_array_raises(kind: str, use: str) -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = filled(1.0)
    t = s.upload(host, to=dev) if kind == "upload" else s.download(dev, into=host)
    with pytest.raises(nx.UseAfterTransferError) as err:
        MOVED_USES[use](host, s, dev)  # type: ignore[use-after-transfer]
    msg = str(err.value)
    assert host.label in msg and kind in msg and s.label in msg
    assert f"{__file__}:" in msg  # where it moved
    assert "wait()" in msg  # the fix
    assert t.wait() is not host  # type: ignore[use-after-transfer]


def test_wait_returns_ownership_as_a_new_handle_and_old_one_stays_dead() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = filled(3.0)
    old = host
    up = s.upload(host, to=dev)
    host = up.wait()
    assert host is not old  # type: ignore[use-after-transfer]
    assert host.read()[0] == 3.0
    with pytest.raises(nx.UseAfterTransferError, match=r"completed at .*new handle"):
        old.read()  # type: ignore[use-after-transfer]


def test_error_is_raised_at_the_offending_line() -> None:
    s = nx.stream()
    host = filled(1.0)
    up = s.upload(host, to=nx.device_array(N, np.float32))
    with pytest.raises(nx.UseAfterTransferError) as err:
        expected = here() + 1
        host.read()  # type: ignore[use-after-transfer]
    assert line_of(err) == expected
    up.wait()


def test_refused_use_leaves_data_and_transfer_intact() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = filled(5.0)
    up = s.upload(host, to=dev)
    with pytest.raises(nx.UseAfterTransferError):
        host.write()  # type: ignore[use-after-transfer]
    host = up.wait()
    out = s.download(dev, into=nx.pinned_array(N, np.float32)).wait()
    assert (out.read() == 5.0).all() and (host.read() == 5.0).all()


# -- rule 2: a transfer is completed exactly once ---------------------------------------
def test_second_wait_raises_and_names_the_first() -> None:
    s = nx.stream()
    up = s.upload(filled(1.0), to=nx.device_array(N, np.float32))
    line = here() + 1
    up.wait()
    with pytest.raises(nx.UseAfterTransferError, match=rf"already completed at .*:{line}"):
        up.wait()  # type: ignore[transfer-completed-twice]


def test_done_polls_without_completing() -> None:
    s = nx.stream()
    host = filled(1.0)
    up = s.upload(host, to=nx.device_array(N, np.float32))
    while not up.done():
        pass
    assert not up.completed
    with pytest.raises(nx.UseAfterTransferError):
        host.read()  # type: ignore[use-after-transfer]
    up.wait()


def test_dropped_transfer_warns() -> None:
    s = nx.stream()
    host = filled(1.0)
    with pytest.warns(ResourceWarning, match="garbage-collected without being completed"):
        s.upload(host, to=nx.device_array(N, np.float32))  # type: ignore[unfinished-transfer]
    with pytest.raises(nx.UseAfterTransferError):
        host.read()  # type: ignore[use-after-transfer]


# -- rule 3: lends are read-only and scoped ---------------------------------------------
def test_lent_handle_reads_but_owner_cannot_write_move_or_free() -> None:
    s = nx.stream()
    host = filled(2.0)
    dev = nx.device_array(N, np.float32)
    with host.lend() as view:
        assert view.read()[0] == 2.0
        assert host.read()[0] == 2.0  # the owner may still read
        for refused in (
            lambda: host.write(),
            lambda: s.upload(host, to=dev),
            lambda: s.download(dev, into=host),
            lambda: host.free(),
        ):
            with pytest.raises(nx.BorrowError, match="lent"):
                refused()
    with host.write() as a:  # after the block: everything again
        a[0] = 7.0
    assert host.read()[0] == 7.0


def test_lent_handle_cannot_write_or_move_at_run_time() -> None:
    s = nx.stream()
    host = filled(2.0)
    with host.lend() as view:
        with pytest.raises(nx.BorrowError, match="read-only"):
            view.write()  # type: ignore[misc]  # mypy refuses this statically too
        with pytest.raises(nx.BorrowError, match="read-only"):
            s.upload(view, to=nx.device_array(N, np.float32))  # type: ignore[arg-type]
    assert (host.read() == 2.0).all()


def test_lent_handle_expires_with_its_block() -> None:
    host = filled(2.0)
    with host.lend() as view:
        pass
    with pytest.raises(nx.BorrowError, match="has ended"):
        view.read()  # type: ignore[lend-escape]


def test_write_view_is_read_only_after_its_block() -> None:
    host = nx.pinned_array(N, np.float32)
    with host.write() as a:
        a[:] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 9.0
    assert host.read()[0] == 1.0


def test_no_read_lend_or_move_while_writing() -> None:
    s = nx.stream()
    host = filled(1.0)
    with host.write():
        for refused in (
            lambda: host.read(),
            lambda: host.lend(),
            lambda: s.upload(host, to=nx.device_array(N, np.float32)),
            lambda: host.write(),
        ):
            with pytest.raises(nx.BorrowError, match=r"write\(\) view"):
                refused()


def test_read_view_is_read_only() -> None:
    with pytest.raises(ValueError, match="read-only"):
        filled(1.0).read()[0] = 3.0


# -- rule 4: device work is stream-ordered ----------------------------------------------
def test_kernel_after_upload_on_same_stream_sees_the_data() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    up = s.upload(filled(1.0), to=dev)
    s.launch(add_one, (N + 127) // 128, 128, dev)  # no host sync in between
    down = s.download(dev, into=up.wait())
    assert (down.wait().read() == 2.0).all()


def test_launch_refuses_host_memory_and_lent_device_arrays() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    with pytest.raises(TypeError, match="host memory"):
        s.launch(add_one, 8, 128, filled(1.0))  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="host memory"):
        s.launch(add_one, 8, 128, np.zeros(N, np.float32))  # type: ignore[call-overload]
    with dev.lend() as view, pytest.raises(nx.BorrowError, match="read-only"):
        s.launch(add_one, 8, 128, view)  # type: ignore[arg-type]


def test_device_to_device_copy_moves_nothing() -> None:
    s = nx.stream()
    a = nx.device_array(N, np.float32)
    b = nx.device_array(N, np.float32)
    host = s.upload(filled(4.0), to=a).wait()
    t = s.copy(a, to=b)
    assert t.wait() is None
    out = s.download(b, into=host).wait()
    assert (out.read() == 4.0).all()
    del t
    s.copy(b, to=a)  # dropping it is fine: it holds no host memory


def test_lent_device_array_is_a_copy_source_but_not_a_destination() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = s.upload(filled(6.0), to=dev).wait()
    with dev.lend() as view:
        out = s.download(view, into=nx.pinned_array(N, np.float32)).wait()
        assert (out.read() == 6.0).all()
        with pytest.raises(nx.BorrowError):
            s.upload(host, to=view)  # type: ignore[arg-type]
        with pytest.raises(nx.BorrowError):
            s.upload(host, to=dev)  # the owner is lent
    assert host.read()[0] == 6.0


# -- rule 5: nothing is copied --------------------------------------------------------------
def test_ownership_comes_back_without_a_copy() -> None:
    s = nx.stream()
    host = filled(1.0)
    address = host.read().__array_interface__["data"][0]
    host = s.upload(host, to=nx.device_array(N, np.float32)).wait()
    assert host.read().__array_interface__["data"][0] == address


# -- rule 6: bad input is refused before anything is enqueued, state unchanged ---------------
def test_pageable_memory_is_refused_with_the_fix() -> None:
    s = nx.stream()
    with pytest.raises(nx.PageableMemoryError, match="pinned_copy"):
        s.upload(np.ones(N, np.float32), to=nx.device_array(N, np.float32))  # type: ignore[arg-type]
    with pytest.raises(nx.PageableMemoryError, match="page-locked"):
        s.download(nx.device_array(N, np.float32), into=np.ones(N, np.float32))  # type: ignore[call-overload]


@pytest.mark.parametrize(
    ("shape", "dtype"), [((N + 1,), np.float32), ((N,), np.float64), ((N // 2, 2), np.float32)]
)
def test_shape_or_dtype_mismatch_is_refused_and_nothing_moves(
    shape: tuple[int, ...], dtype: type[np.generic]
) -> None:
    s = nx.stream()
    host = filled(1.0)
    with pytest.raises(ValueError, match="mismatch"):
        s.upload(host, to=nx.device_array(shape, dtype))
    with pytest.raises(ValueError, match="mismatch"):
        s.download(nx.device_array(shape, dtype), into=host)
    assert host.read()[0] == 1.0  # still owned, still usable
    s.upload(host, to=nx.device_array(N, np.float32)).wait()


def test_closed_stream_refuses_work_and_nothing_moves() -> None:
    s = nx.stream()
    host = filled(1.0)
    s.close()
    with pytest.raises(nx.StreamClosedError, match="closed at"):
        s.upload(host, to=nx.device_array(N, np.float32))
    assert host.read()[0] == 1.0
    with pytest.raises(nx.StreamClosedError):
        s.close()


def test_wrong_argument_types_are_refused_with_the_fix() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    with pytest.raises(TypeError, match=r"stream\.copy"):
        s.upload(dev, to=dev)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"nx\.device_array"):
        s.upload(filled(1.0), to=filled(1.0))  # type: ignore[arg-type]


def test_pinned_copy_copies_once_and_owns() -> None:
    source = np.arange(N, dtype=np.float32)
    host = nx.pinned_copy(source)
    source[:] = -1
    assert (host.read() == np.arange(N)).all()
    with pytest.raises(TypeError):
        nx.pinned_copy([1, 2, 3])  # type: ignore[arg-type]


def test_freed_array_refuses_use() -> None:
    host = filled(1.0)
    host.free()
    with pytest.raises(nx.UseAfterTransferError, match="freed"):
        host.read()


# -- streams ------------------------------------------------------------------------------
def test_close_with_unfinished_transfers_names_them() -> None:
    s = nx.stream()
    up = s.upload(filled(1.0), to=nx.device_array(N, np.float32))
    with pytest.raises(nx.StreamClosedError, match=r"1 transfer\(s\).*upload#"):
        s.close()  # type: ignore[unfinished-transfer]  # the static check sees it too
    assert not s.closed
    up.wait()
    s.close()
    assert s.closed


def test_lent_stream_enqueues_but_cannot_close() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    with s.lend() as ls:
        host = ls.upload(filled(8.0), to=dev).wait()
        with pytest.raises(nx.BorrowError):
            ls.close()  # type: ignore[misc]
        with pytest.raises(nx.BorrowError, match="lent"):
            s.close()  # type: ignore[owner-borrowed]
    with pytest.raises(nx.BorrowError, match="has ended"):
        ls.upload(host, to=dev)  # type: ignore[lend-escape]
    assert host.read()[0] == 8.0
    s.close()


def test_handles_are_not_constructed_directly() -> None:
    for cls in (nx.PinnedArray, nx.DeviceArray, nx.Stream, nx.Transfer):
        with pytest.raises(TypeError):
            cls()
    with pytest.raises(TypeError):
        nx.Owned()
