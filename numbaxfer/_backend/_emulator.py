"""The lazy CPU emulator: numba's simulator with CUDA's asynchrony put back.

Each stream is a queue. Copies, kernel launches (run by numba's CUDA simulator) and
cross-stream waits are enqueued and execute only when something forces them: an
event or stream synchronize, or a ``query`` that the schedule decides to answer.
A host-to-device copy reads host memory when it executes, not when it is enqueued;
a device-to-host copy writes its destination when it executes. So a host access
that races a copy sees exactly what it could see on a GPU, deterministically.

What it models: stream order, events (record, query, synchronize, stream-wait),
the time at which a copy touches host memory. What it does not: concurrency inside
a kernel beyond what the simulator does, timing, copy engines, device memory limits,
the legacy default stream's implicit synchronization.

Schedule (``NUMBAXFER_EMULATOR_SCHEDULE``): ``lazy`` (default) runs nothing until
forced; the first ``query`` of an event answers "not yet" and the next one runs the
work it captures.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["EmulatorBackend"]


def _require_simulator() -> Any:
    """Import numba.cuda in simulator mode (the emulator runs kernels on it)."""
    import sys

    if "numba.cuda" not in sys.modules:
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    from numba import cuda
    from numba.cuda.core import config

    if not config.ENABLE_CUDASIM:
        raise RuntimeError(
            "NUMBAXFER_BACKEND=emulator needs numba's CUDA simulator, but numba.cuda was "
            "already imported for a GPU. Set NUMBA_ENABLE_CUDASIM=1 before importing numba, "
            "or select the emulator before numba.cuda is first imported."
        )
    return cuda


class _Stream:
    __slots__ = ("done_upto", "label", "ops")

    def __init__(self, label: str) -> None:
        self.label = label
        self.ops: deque[tuple[int, Callable[[], None]]] = deque()
        self.done_upto = 0  # every op with seq < done_upto has run


class _Event:
    __slots__ = ("queried", "seq", "stream")

    def __init__(self, stream: _Stream, seq: int) -> None:
        self.stream = stream
        self.seq = seq  # captures the stream's ops with seq < self.seq
        self.queried = 0


class EmulatorBackend:
    """Lazy, deterministic CPU backend (see module docstring)."""

    name = "emulator"
    synchronous = False

    def __init__(self) -> None:
        self._cuda = _require_simulator()
        self._seq = 0
        self._streams = 0

    def describe(self) -> str:
        return "numbaxfer emulator (lazy: copies run only when forced)"

    # -- memory --------------------------------------------------------------
    def alloc_pinned(self, shape: tuple[int, ...], dtype: np.dtype[Any]) -> NDArray[Any]:
        return np.zeros(shape, dtype=dtype)

    def alloc_device(self, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
        return self._cuda.to_device(np.zeros(shape, dtype=dtype))

    def kernel_arg(self, device_buffer: Any) -> Any:
        return device_buffer

    # -- streams -------------------------------------------------------------
    def new_stream(self) -> Any:
        self._streams += 1
        return _Stream(f"emulated stream {self._streams}")

    def close_stream(self, stream: Any) -> None:
        # Queued work stays queued: it runs when an event that captures it is forced.
        pass

    def sync_stream(self, stream: Any) -> None:
        self._run(stream, self._seq + 1)

    # -- work ----------------------------------------------------------------
    def _enqueue(self, stream: _Stream, op: Callable[[], None]) -> None:
        self._seq += 1
        stream.ops.append((self._seq, op))

    def copy_htod(self, stream: Any, dst: Any, src: NDArray[Any]) -> None:
        self._enqueue(stream, lambda: np.copyto(dst._ary, src))

    def copy_dtoh(self, stream: Any, dst: NDArray[Any], src: Any) -> None:
        self._enqueue(stream, lambda: np.copyto(dst, src._ary))

    def copy_dtod(self, stream: Any, dst: Any, src: Any) -> None:
        self._enqueue(stream, lambda: np.copyto(dst._ary, src._ary))

    def launch(
        self,
        stream: Any,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        args: Sequence[Any],
    ) -> None:
        frozen = tuple(args)
        self._enqueue(stream, lambda: kernel[griddim, blockdim](*frozen))

    # -- events --------------------------------------------------------------
    def record(self, stream: Any) -> Any:
        self._seq += 1
        return _Event(stream, self._seq)

    def query(self, event: Any) -> bool:
        if event.stream.done_upto >= event.seq:
            return True
        event.queried += 1
        if event.queried < 2:
            return False
        self._run(event.stream, event.seq)
        return True

    def sync_event(self, event: Any) -> None:
        self._run(event.stream, event.seq)

    def wait_event(self, stream: Any, event: Any) -> None:
        self._enqueue(stream, lambda: self._run(event.stream, event.seq))

    def release_event(self, event: Any) -> None:
        pass

    def _run(self, stream: _Stream, upto: int) -> None:
        """Execute ``stream``'s ops with seq < upto, in order."""
        while stream.ops and stream.ops[0][0] < upto:
            seq, op = stream.ops.popleft()
            op()
            stream.done_upto = seq + 1
        stream.done_upto = max(stream.done_upto, upto)


class RawEmulatedCuda:
    """The numba.cuda calls of the seed program, on the lazy emulator, unchecked.

    For demonstrations and tests: a program written the numba way
    (``dev.copy_to_device(host, stream=s)``, then touching ``host``) runs here with
    CUDA's timing, so its race gives the wrong answer on a CPU, every time. Nothing
    is checked: this is what numbaxfer protects against.
    """

    def __init__(self, backend: EmulatorBackend | None = None) -> None:
        self.backend = backend or EmulatorBackend()

    def stream(self) -> _RawStream:
        return _RawStream(self.backend, self.backend.new_stream())

    def pinned_array(self, shape: int | tuple[int, ...], dtype: Any = np.float64) -> NDArray[Any]:
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        return self.backend.alloc_pinned(dims, np.dtype(dtype))

    def device_array(self, shape: int | tuple[int, ...], dtype: Any = np.float64) -> _RawDevice:
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        return _RawDevice(self.backend, self.backend.alloc_device(dims, np.dtype(dtype)))


class _RawStream:
    def __init__(self, backend: EmulatorBackend, raw: _Stream) -> None:
        self.backend = backend
        self.raw = raw

    def synchronize(self) -> None:
        self.backend.sync_stream(self.raw)


class _RawDevice:
    def __init__(self, backend: EmulatorBackend, buf: Any) -> None:
        self.backend = backend
        self.buf = buf

    def copy_to_device(self, ary: NDArray[Any], stream: _RawStream | int = 0) -> None:
        if isinstance(stream, _RawStream):
            self.backend.copy_htod(stream.raw, self.buf, ary)
        else:
            np.copyto(self.buf._ary, ary)

    def copy_to_host(
        self, ary: NDArray[Any] | None = None, stream: _RawStream | int = 0
    ) -> NDArray[Any]:
        out = np.empty(self.buf.shape, self.buf.dtype) if ary is None else ary
        if isinstance(stream, _RawStream):
            self.backend.copy_dtoh(stream.raw, out, self.buf)
        else:
            np.copyto(out, self.buf._ary)
        return out
