"""Issue 10, class 6: bad input is refused, with a clear error, before anything
happens."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.kernels import affine

N = 64
F32 = np.float32
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _pin_scope(shape: Any, dtype: Any) -> None:
    with nx.pinned(np.zeros(shape, dtype)):
        pass


ALLOCATORS: dict[str, Callable[[Any, Any], object]] = {
    "pinned_array": nx.pinned_array,
    "device_array": nx.device_array,
    "mapped_array": nx.mapped_array,
    "pinned_copy": lambda shape, dtype: nx.pinned_copy(np.zeros(shape, dtype)),
    "nx.pinned": _pin_scope,
    "PinnedPool": lambda shape, dtype: nx.PinnedPool(1, shape, dtype),
}

BAD_DTYPES = [object, "U4", "S4", "V8", [("a", F32), ("b", np.int32)], "M8[s]", "m8[s]"]


@pytest.mark.parametrize("dtype", BAD_DTYPES, ids=str)
@pytest.mark.parametrize("allocator", [*ALLOCATORS, "Pipeline"])
def test_non_numeric_dtype_is_refused(backend: Any, allocator: str, dtype: Any) -> None:
    """Class 6 (bad input): object dtype, and any dtype whose kind is not b/i/u/f/c, is
    refused with TypeError by every allocator (object pointers in pinned memory, copied
    to the device as raw bytes, are garbage)."""
    with pytest.raises(TypeError):
        if allocator == "Pipeline":
            nx.Pipeline(16, np.dtype(dtype), slots=1)
        else:
            ALLOCATORS[allocator](N, dtype)


@pytest.mark.parametrize("shape", [True, False, (2, True), np.bool_(True)], ids=repr)
@pytest.mark.parametrize(
    "allocator", ["pinned_array", "device_array", "mapped_array", "PinnedPool"]
)
def test_bool_shape_is_refused(backend: Any, allocator: str, shape: Any) -> None:
    """Class 6 (bad input): `nx.pinned_array(True)` (a bool as shape) is a TypeError,
    not an array of one element."""
    with pytest.raises(TypeError):
        ALLOCATORS[allocator](shape, F32)


@pytest.mark.parametrize("shape", [0, (0,), (4, 0), (0, 4), ()], ids=repr)
@pytest.mark.parametrize("allocator", list(ALLOCATORS))
def test_empty_and_zero_d_arrays_are_refused(backend: Any, allocator: str, shape: Any) -> None:
    """Class 6 (bad input): zero-size (any dimension 0) and 0-d arrays are refused at
    allocation with ValueError by every allocator, with a message that says why."""
    with pytest.raises(ValueError) as err:
        ALLOCATORS[allocator](shape, F32)
    assert len(str(err.value)) > 20


@pytest.mark.parametrize("where", ["reads", "writes"])
def test_kernel_intents_must_be_a_list_not_a_str(where: str) -> None:
    """Class 6 (bad input): `nx.kernel(reads="src")` is a TypeError: a str is an
    iterable of letters, so a kernel with parameters named `s`, `r`, `c` would be
    silently declared wrong."""
    with pytest.raises(TypeError):
        nx.kernel(**{where: "src"})(affine)


def test_kernel_intents_str_is_not_split_into_letters() -> None:
    """Class 6 (bad input): the silent case: a kernel whose parameters are single
    letters accepts `reads="ab"` today as reads=["a", "b"]."""
    from numba import cuda

    @cuda.jit
    def two(a: Any, b: Any) -> None:  # pragma: no cover - never launched
        pass

    with pytest.raises(TypeError):
        nx.kernel(reads="ab")(two)


@pytest.mark.parametrize("other", [None, 0, "stream"], ids=repr)
def test_wait_for_refuses_a_non_stream(backend: Any, other: Any) -> None:
    """Class 6 (bad input): `s.wait_for(None)` is a TypeError (not an AttributeError)."""
    s = nx.stream()
    with pytest.raises(TypeError):
        s.wait_for(other)
    s.close()


@pytest.mark.parametrize(
    "thing", [np.zeros(4), np.zeros(N, F32), None, "buffer"], ids=["ndarray", "same", "None", "str"]
)
def test_pool_give_refuses_a_non_handle(backend: Any, thing: Any) -> None:
    """Class 6 (bad input): `pool.give(np.zeros(4))` is a TypeError (not AttributeError)."""
    pool = nx.PinnedPool(1, N, F32)
    with pytest.raises(TypeError):
        pool.give(thing)


@pytest.mark.parametrize("thing", [None, 3, np.zeros(4)], ids=["None", "int", "ndarray"])
def test_pool_recycle_refuses_a_non_transfer(backend: Any, thing: Any) -> None:
    """Class 6 (bad input): `pool.recycle(None)` is a TypeError."""
    pool = nx.PinnedPool(1, N, F32)
    with pytest.raises(TypeError):
        pool.recycle(thing)


# -- scopes: the borrow starts in __enter__ ------------------------------------------------
def test_write_scope_not_entered_does_not_lock(backend: Any) -> None:
    """Class 6 (bad input): `w = h.write()` without `with`: `h` is not locked (it can
    be read, written again and moved); the borrow starts in `__enter__`."""
    s = nx.stream()
    h = nx.pinned_array(N, F32)
    w = h.write()
    h.read()
    with h.write() as a:
        a[:] = 1.0
    h = s.upload(h, to=nx.device_array(N, F32)).wait()
    del w
    s.close()


def test_lend_scope_not_entered_does_not_lock(backend: Any) -> None:
    """Class 6 (bad input): `l = h.lend()` without `with`: `h` is not locked (it can be
    written and moved)."""
    s = nx.stream()
    h = nx.pinned_array(N, F32)
    lend = h.lend()
    with h.write() as a:
        a[:] = 1.0
    h = s.upload(h, to=nx.device_array(N, F32)).wait()
    del lend
    s.close()


@pytest.mark.parametrize("kind", ["write", "lend", "device lend", "stream lend"])
def test_scope_entered_twice_is_refused(backend: Any, kind: str) -> None:
    """Class 6 (bad input): entering the same write()/lend() scope object twice is a
    RuntimeError."""
    h = nx.pinned_array(N, F32)
    scope: Any = {  # type: ignore[no-untyped-call]
        "write": lambda: h.write(),
        "lend": lambda: h.lend(),
        "device lend": lambda: nx.device_array(N, F32).lend(),
        "stream lend": lambda: nx.stream().lend(),
    }[kind]()
    with scope:
        pass
    with pytest.raises(RuntimeError), scope:
        pass


# -- atexit ---------------------------------------------------------------------------------
ATEXIT = {
    "s.close": "s = nx.stream(); atexit.register(s.close)",
    "s.close after work": (
        "s = nx.stream(); s.upload(nx.pinned_array(8, 'f4'), to=nx.device_array(8, 'f4')).wait()"
        "; atexit.register(s.close)"
    ),
    "h.free": "h = nx.pinned_array(8, 'f4'); atexit.register(h.free)",
    "d.free": "d = nx.device_array(8, 'f4'); atexit.register(d.free)",
    "pipe.close": "p = nx.Pipeline(8, 'f4', slots=1); atexit.register(p.close)",
}


@pytest.mark.parametrize("backend_name", ["numba", "emulator"])
@pytest.mark.parametrize("case", list(ATEXIT))
def test_atexit_register_of_a_method_works(case: str, backend_name: str) -> None:
    """Class 6 (bad input): `atexit.register(s.close)` (a bound method called straight
    from the interpreter's exit, no Python caller frame) works: no "call stack is not
    deep enough", nothing printed, exit status 0."""
    code = f"import atexit, numbaxfer as nx\n{ATEXIT[case]}\n"
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", NUMBAXFER_BACKEND=backend_name)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr[-2000:]
