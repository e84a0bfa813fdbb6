"""The backend protocol and its selection.

A backend enqueues work and records events; it knows nothing of ownership. The
handles check and transition their borrow flags first, then call the backend.

``NUMBAXFER_BACKEND`` picks one per process:

* ``numba`` (default): numba-cuda on the GPU, or numba's simulator when
  ``NUMBA_ENABLE_CUDASIM=1`` (synchronous: every copy finishes before it returns). On
  a GPU, copies, events and stream waits take the fast path straight to the driver
  (cuda.bindings), and kernels numba has compiled for the arguments' types are launched
  with their arguments packed once (``NUMBAXFER_DIRECT_LAUNCH=0`` sends every launch
  through numba's dispatcher); ``NUMBAXFER_FASTPATH=0`` keeps everything on numba's own
  methods;
* ``emulator``: numba's simulator made lazy; copies and kernels run only when
  something forces them, so a host access that races a copy gives the wrong answer
  on a CPU, every time. It works whatever mode numba.cuda was imported in (it runs
  kernels from their Python source on the simulator's machinery), so the variable
  alone is enough, whatever the program imported first.

In code: :func:`use_backend` (a switch, and a context manager that switches back) and
:func:`current_backend`. Handles keep the backend they were made with.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, Protocol, final

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from ._emulator import Schedule

__all__ = [
    "Backend",
    "BackendSwitch",
    "current_backend",
    "get_backend",
    "device_count",
    "gpu_present",
    "on_device",
    "set_backend",
    "use_backend",
]

BACKEND_NAMES = ("numba", "emulator")


class Backend(Protocol):
    """What numbaxfer needs from a CUDA implementation.

    ``Stream``, ``Event`` and device buffers are opaque to the caller (``object``).

    Copies and launches are asynchronous with respect to the host and ordered on their
    stream; ``record`` captures all work enqueued on the stream so far.
    """

    name: str
    #: True where copies run at once (numba's simulator): no race can show.
    synchronous: bool
    #: True where no real GPU runs the work (simulator, emulator): waits complete inline.
    simulated: bool
    #: The device ordinal this backend object places memory, streams and work on.
    device: int
    #: Shared by the backend objects of one host's devices (``on_device``): their
    #: handles may meet in one call (pinned memory, peer copies, cross-device waits).
    family: object

    def describe(self) -> str: ...

    def alloc_pinned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]: ...

    def alloc_device(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> Any:
        """A device buffer, C- or Fortran-contiguous (``order``)."""
        ...

    def device_view(self, device_buffer: Any, start: int, stop: int) -> Any:
        """A device buffer over rows ``start:stop`` (first axis) of ``device_buffer``,
        sharing its memory."""
        ...

    def host_memory(self, buf: NDArray[Any]) -> Any:
        """What this backend's copies take for pinned array ``buf``, computed once per
        handle (the fast path keeps the pointer and size)."""
        ...

    def kernel_arg(self, device_buffer: Any) -> Any:
        """The object to pass to a numba kernel for this device buffer."""
        ...

    def array_interface(self, device_buffer: Any) -> dict[str, Any]:
        """The buffer's ``__cuda_array_interface__`` (TypeError where there is none)."""
        ...

    def stream_handle(self, stream: Any) -> int | None:
        """The driver's handle of ``stream`` as an int, for interop."""
        ...

    def wait_event_handle(self, stream_handle: int, event: Any) -> None:
        """Make a foreign stream (a driver handle) wait for ``event`` on the device."""
        ...

    def device_ordinal(self) -> int:
        """The ordinal of the device this backend runs on."""
        ...

    def buffer_device(self, device_buffer: Any) -> int:
        """The device whose memory ``device_buffer`` is (for adopted arrays)."""
        ...

    def stream_device(self, stream: Any) -> int:
        """The device ``stream`` (one of this backend's, or adopted) runs on."""
        ...

    def device_count(self) -> int:
        """How many devices this backend's host has."""
        ...

    def on_device(self, device: int) -> Backend:
        """The backend object of the same family for ``device`` (0 <= device <
        ``device_count()``, checked by the caller); ``self`` for its own device."""
        ...

    def peer_route(self, other: Backend) -> bool:
        """Can this device's streams copy straight between its memory and ``other``'s
        (peer access; enabled here on the first ask where the hardware allows it)?"""
        ...

    def copy_peer(
        self, stream: Any, dst: Any, dst_backend: Backend, src: Any, src_backend: Backend
    ) -> None:
        """Copy device buffer ``src`` (on ``src_backend``'s device) into ``dst`` (on
        ``dst_backend``'s), on ``stream`` of this backend, through peer access."""
        ...

    def adopt_stream(self, handle: int) -> Any:
        """A stream of this backend over a foreign driver stream handle (not owned:
        never destroyed here). TypeError where there are no driver streams."""
        ...

    def adopt_device(self, obj: Any) -> tuple[Any, tuple[int, ...], np.dtype[Any], int | None]:
        """A device buffer over a foreign device array (``__cuda_array_interface__``,
        ``__dlpack__`` or this backend's own arrays), without a copy and without a host
        sync: (buffer, shape, dtype, the stream its producer named, if any). The buffer
        keeps ``obj`` alive. TypeError for what cannot be adopted."""
        ...

    def alloc_mapped(self, shape: tuple[int, ...], dtype: np.dtype[Any]) -> tuple[Any, Any]:
        """Mapped host memory: (host numpy array, device buffer) over the same bytes."""
        ...

    def pin(self, array: NDArray[Any]) -> Any:
        """Page-lock ``array`` in place; it stays pinned while the result is referenced."""
        ...

    def map_in_place(self, array: NDArray[Any]) -> tuple[Any, Any]:
        """Page-lock and map ``array`` in place: (pin, device buffer over the same bytes);
        it stays pinned and mapped while the pin is referenced."""
        ...

    def new_stream(self) -> Any: ...

    def close_stream(self, stream: Any) -> None: ...

    def copy_htod(self, stream: Any, dst: Any, src: Any) -> None:
        """Copy host memory ``src`` (a ``host_memory`` token) into device buffer ``dst``."""
        ...

    def copy_dtoh(self, stream: Any, dst: Any, src: Any) -> None:
        """Copy device buffer ``src`` into host memory ``dst`` (a ``host_memory`` token)."""
        ...

    def copy_dtod(self, stream: Any, dst: Any, src: Any) -> None: ...

    def launch(
        self,
        stream: Any,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        args: Sequence[Any],
    ) -> None:
        """Launch ``kernel`` (a numba dispatcher) on ``stream``. ``args``: device buffers
        as this backend made them (``kernel_arg`` gives what numba takes for one) and
        scalars."""
        ...

    def record(self, stream: Any) -> Any:
        """Record an event capturing all work enqueued on ``stream`` so far."""
        ...

    def query(self, event: Any) -> bool:
        """Has all work captured by ``event`` finished? Never blocks."""
        ...

    def sync_event(self, event: Any) -> None:
        """Block the host until ``event`` has completed (this event only)."""
        ...

    def wait_event(self, stream: Any, event: Any) -> None:
        """Make later work on ``stream`` wait for ``event``, on the device."""
        ...

    def sync_stream(self, stream: Any) -> None: ...

    def release_event(self, event: Any) -> None:
        """The event is no longer needed (pooling backends may reuse it)."""
        ...

    # -- graphs (nx.capture) ---------------------------------------------------
    def begin_capture(self, streams: Sequence[Any]) -> Any:
        """Start capturing the work enqueued on ``streams`` (the first is the origin,
        the others fork from it) into a graph: from now on copies, launches, event
        records and waits there are recorded, not run. Returns the capture's token."""
        ...

    def end_capture(self, capture: Any, hosts: Sequence[Any]) -> Any:
        """End ``capture`` (joining its streams back into the origin) and instantiate
        it: an executable graph whose host parameters are ``hosts`` (``host_memory``
        tokens of the whole buffers the captured copies touch)."""
        ...

    def abort_capture(self, capture: Any, streams: Sequence[Any]) -> None:
        """End the capture on ``streams`` and discard what it recorded. ``capture`` is
        None where ``begin_capture``'s result never arrived (interrupted): whatever
        capture is open on ``streams`` ends. Never raises for a capture the driver
        already invalidated."""
        ...

    def graph_launch(self, graph: Any, stream: Any, hosts: Sequence[Any]) -> None:
        """Enqueue one replay of ``graph`` on ``stream``, with ``hosts`` (tokens of
        buffers laid out like the parameters) in place of the parameters: the copies
        are re-pointed where a buffer differs from the last replay's."""
        ...

    def graph_destroy(self, graph: Any) -> None:
        """Free the executable graph (a replay still running finishes first)."""
        ...


_current: Backend | None = None


def gpu_present() -> bool:
    """Does the CUDA driver see a GPU? Asks libcuda directly, without importing numba
    (numba picks GPU or simulator once, at import)."""
    import ctypes

    try:
        libcuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    if libcuda.cuInit(0) != 0:
        return False
    return bool(libcuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0)


def get_backend() -> Backend:
    """The process's backend, created on first use from ``NUMBAXFER_BACKEND``."""
    global _current
    if _current is None:
        _current = _make(os.environ.get("NUMBAXFER_BACKEND", "numba") or "numba")
    return _current


def device_count() -> int:
    """How many devices the current backend has: the GPUs the driver sees (1 on
    numba's simulator), or the emulator's setting (``NUMBAXFER_EMULATOR_DEVICES``,
    ``use_backend("emulator", devices=N)``)."""
    return get_backend().device_count()


def on_device(device: object, op: str, site: tuple[str, int] | None = None) -> Backend:
    """The current backend's object for ``device`` (None: the current device), or a
    clear error for anything that is not a device of this host."""
    from .._errors import where

    root = get_backend()
    if device is None:
        return root
    at = "" if site is None else f" at {where(site)}"
    if isinstance(device, bool) or not isinstance(device, (int, np.integer)):
        raise TypeError(
            f"{op}{at}: device= takes a device ordinal (an int from 0 to "
            f"nx.device_count() - 1) or None for the current device, not {device!r} "
            f"({type(device).__name__})."
        )
    n = int(device)
    count = root.device_count()
    if not 0 <= n < count:
        have = "device 0 only" if count == 1 else f"devices 0 to {count - 1}"
        raise ValueError(
            f"{op}{at}: device={n} does not exist: {root.describe()} has {count} "
            f"device(s) ({have}). Pass a device from 0 to {count - 1} "
            "(nx.device_count() says how many there are), or None for the current device."
        )
    return root if n == root.device else root.on_device(n)


def current_backend() -> Backend:
    """The backend that new streams and arrays are made on (``NUMBAXFER_BACKEND`` until
    :func:`use_backend` switches it). Its ``describe()`` says what it is."""
    return get_backend()


def set_backend(name: str) -> Backend:
    """Switch backend by name, ``numba`` or ``emulator`` (the emulator's schedule from
    ``NUMBAXFER_EMULATOR_SCHEDULE``). Prefer :func:`use_backend`."""
    return use_backend(name).backend


@final
class BackendSwitch:
    """What :func:`use_backend` returns: the switch has already happened.

    ``backend`` is the backend now current. As a context manager it gives that backend
    and switches back to the previous one at exit (also on an exception); outside a
    ``with``, :meth:`restore` does the same.
    """

    __slots__ = ("_previous", "backend")

    def __init__(self, backend: Backend, previous: Backend | None) -> None:
        self.backend = backend
        self._previous = previous

    def restore(self) -> None:
        """Make the backend that was current before the switch current again."""
        global _current
        _current = self._previous

    def __enter__(self) -> Backend:
        return self.backend

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.restore()

    def __repr__(self) -> str:
        return f"<numbaxfer backend switch to {self.backend.describe()}>"


def use_backend(
    backend: str | Backend,
    *,
    schedule: str | Schedule | None = None,
    trace: bool = False,
    devices: int | None = None,
    peer: bool = True,
) -> BackendSwitch:
    """Make ``backend`` current for the streams and arrays created from now on.

    ``backend``: ``"numba"`` (the GPU, or numba's simulator under
    ``NUMBA_ENABLE_CUDASIM=1``), ``"emulator"`` (the lazy CPU emulator; it works
    whatever mode numba.cuda was imported in), or a backend object to install as it is.
    ``schedule`` (emulator only): ``"lazy"``, ``"eager"``, ``"random"`` or
    ``"random:SEED"``; None reads ``NUMBAXFER_EMULATOR_SCHEDULE`` (default lazy).
    ``trace=True`` (emulator only) records every operation run in ``backend.trace``.
    ``devices`` (emulator only): how many devices it models (None reads
    ``NUMBAXFER_EMULATOR_DEVICES``, default 2); ``peer=False`` (emulator only) models
    devices without peer access, so device-to-device copies take the staged route.

    The switch is process-wide and happens at the call; used as a context manager
    (``with nx.use_backend("emulator", schedule="random:7") as emu:``) it switches back
    at the end of the block. Handles keep the backend they were made with: an array
    created before the switch stays on its backend, and mixing handles of two backends
    in one call is refused.
    """
    global _current
    previous = _current
    if isinstance(backend, str):
        name = backend
        options = schedule is not None or trace or devices is not None or not peer
        if name != "emulator" and options:
            raise ValueError(
                f"use_backend({name!r}): schedule=, trace=, devices= and peer= are options "
                "of the emulator backend only."
            )
        if name == "emulator":
            from ._emulator import EmulatorBackend

            made: Backend = EmulatorBackend(schedule, trace=trace, devices=devices, peer=peer)
        else:
            made = _make(name)
    else:
        if schedule is not None or trace or devices is not None or not peer:
            raise ValueError(
                "use_backend(<backend object>): schedule=, trace=, devices= and peer= apply "
                "when the emulator is named, use_backend('emulator', schedule=...)."
            )
        made = backend
    _current = made
    return BackendSwitch(made, previous)


def _make(name: str) -> Backend:
    if name == "numba":
        from ._numba import BindingsBackend, NumbaBackend

        plain = NumbaBackend()
        if plain.simulated or os.environ.get("NUMBAXFER_FASTPATH", "1") == "0":
            return plain
        return BindingsBackend()
    if name == "emulator":
        from ._emulator import EmulatorBackend

        return EmulatorBackend()
    raise ValueError(
        f"NUMBAXFER_BACKEND={name!r} is not a numbaxfer backend; use one of "
        f"{', '.join(BACKEND_NAMES)}."
    )
