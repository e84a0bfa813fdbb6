"""numba-cuda backend: the GPU, or numba's simulator under ``NUMBA_ENABLE_CUDASIM=1``.

Copies go through numba's device-array methods with an explicit stream; events are
pooled (creating one costs ~14 us through numba, recording ~2.6 us). Nothing here
synchronizes more than the one event or stream it is asked to.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Literal

import numpy as np
from numba import cuda
from numba.cuda.core import config as numba_cuda_config
from numpy.typing import NDArray

from .._guard import alloc_pages, guard_enabled, lifted

__all__ = ["BindingsBackend", "NumbaBackend"]


class NumbaBackend:
    """The backend numbaxfer uses by default.

    One object per device (``on_device``): the first is the thread's current device
    when it was made. While only that one exists nothing here switches contexts; once
    work is placed on a second device, every call that needs a context (allocation,
    stream and event creation, kernel launch) makes its own device's context current
    for the call (numba's ``with cuda.gpus[n]``). Copies and event records name their
    stream, which belongs to its context, so they need no switch.
    """

    name = "numba"

    def __init__(self, device: int | None = None, siblings: dict[int, Any] | None = None) -> None:
        self.simulated: bool = bool(numba_cuda_config.ENABLE_CUDASIM)
        if not self.simulated and not cuda.is_available():
            raise RuntimeError(
                "numbaxfer: no CUDA GPU is available to numba-cuda. On a machine without "
                "a GPU run with NUMBA_ENABLE_CUDASIM=1 (numba's simulator) or "
                "NUMBAXFER_BACKEND=emulator (numbaxfer's lazy CPU emulator)."
            )
        #: The simulator runs every copy at once.
        self.synchronous = self.simulated
        self._events: list[Any] = []
        if device is None:
            device = 0 if self.simulated else int(cuda.get_current_device().id)
        self.device: int = device
        #: device -> its backend object, shared by all of them (the family)
        self._siblings: dict[int, Any] = {} if siblings is None else siblings
        self._siblings[device] = self
        self.family: object = self._siblings
        #: (this device, other device) -> peer access available and enabled
        self._peers: dict[tuple[int, int], bool] = {}
        #: With several devices: event key -> (event, the backend whose pool it returns
        #: to), shared by the family: an event belongs to one context, and may be
        #: released through another device's handle (a transfer's scope, a fence).
        self._owners: dict[int, tuple[Any, Any]] = {}

    def describe(self) -> str:
        if self.simulated:
            return "numba-cuda simulator (NUMBA_ENABLE_CUDASIM=1; copies are synchronous)"
        return f"numba-cuda on {cuda.gpus[self.device].name} (device {self.device})"

    # -- devices -------------------------------------------------------------
    def device_count(self) -> int:
        return 1 if self.simulated else len(cuda.gpus)

    def on_device(self, device: int) -> Any:
        found = self._siblings.get(device)
        if found is None:
            found = type(self)(device, self._siblings)
            found._peers, found._owners = self._peers, self._owners
        return found

    def buffer_device(self, device_buffer: Any) -> int:
        if self.simulated:
            return self.device
        from cuda.bindings import driver as drv

        attribute = drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
        err, ordinal = drv.cuPointerGetAttribute(attribute, _memory(device_buffer)[0])
        return self.device if err else int(ordinal)

    def stream_device(self, stream: Any) -> int:
        if self.simulated:
            return self.device
        from cuda.bindings import driver as drv

        handle = getattr(stream, "handle", None)
        if handle is None:  # a _StreamHandle: numba's stream inside
            handle = stream.stream.handle
        err, ctx = drv.cuStreamGetCtx(handle)
        if err:
            return self.device
        for n in range(self.device_count()):
            if int(_ctx_handle(cuda.gpus[n].get_primary_context())) == int(ctx):
                return n
        return self.device

    def _here(self) -> AbstractContextManager[Any]:
        """This device's context made current for a call, where it may not be."""
        if len(self._siblings) == 1:
            return nullcontext()
        gpu: AbstractContextManager[Any] = cuda.gpus[self.device]
        return gpu

    def peer_route(self, other: Any) -> bool:
        if self.simulated or getattr(other, "family", None) is not self.family:
            return False
        key = (self.device, other.device)
        known = self._peers.get(key)
        if known is None:
            known = self._peers[key] = self._enable_peer(other)
        return known

    def _enable_peer(self, other: Any) -> bool:
        """Peer access both ways between the two devices, where the hardware allows it
        (cuDeviceCanAccessPeer); enabled once per pair (cuCtxEnablePeerAccess)."""
        from cuda.bindings import driver as drv

        def can(a: int, b: int) -> bool:
            err, ok = drv.cuDeviceCanAccessPeer(a, b)
            return not err and bool(ok)

        if not (can(self.device, other.device) and can(other.device, self.device)):
            return False
        for here, there in ((self, other), (other, self)):
            with cuda.gpus[here.device]:
                ctx_there = cuda.gpus[there.device].get_primary_context()
                (err,) = drv.cuCtxEnablePeerAccess(_ctx_handle(ctx_there), 0)
                if err and err != drv.CUresult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED:
                    return False
        return True

    def copy_peer(
        self, stream: Any, dst: Any, dst_backend: Any, src: Any, src_backend: Any
    ) -> None:
        from cuda.bindings import driver as drv

        dst_mem, src_mem = _memory(dst), _memory(src)
        dst_ctx = _ctx_handle(cuda.gpus[dst_backend.device].get_primary_context())
        src_ctx = _ctx_handle(cuda.gpus[src_backend.device].get_primary_context())
        (err,) = drv.cuMemcpyPeerAsync(
            dst_mem[0], dst_ctx, src_mem[0], src_ctx, dst_mem[1], stream.handle
        )
        if err:
            raise RuntimeError(f"numbaxfer: cuMemcpyPeerAsync failed: {err!r}")

    # -- memory --------------------------------------------------------------
    def alloc_pinned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]:
        if self.simulated and guard_enabled():  # the simulator's is ordinary numpy memory
            return alloc_pages(shape, dtype, order)
        if self.simulated:
            return cuda.pinned_array(shape, dtype=dtype, order=order)
        return _portable_pinned(shape, dtype, order)  # cuMemHostAlloc: page-aligned

    def alloc_device(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> Any:
        with self._here():
            return cuda.device_array(shape, dtype=dtype, order=order)

    def host_memory(self, buf: NDArray[Any]) -> Any:
        return buf

    def device_view(self, device_buffer: Any, start: int, stop: int) -> Any:
        return device_buffer[start:stop]

    def alloc_mapped(self, shape: tuple[int, ...], dtype: np.dtype[Any]) -> tuple[Any, Any]:
        """Mapped host memory: (host numpy array, device buffer) over the same bytes."""
        if self.simulated and guard_enabled():
            from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

            host = alloc_pages(shape, dtype)
            return host, FakeCUDAArray(host)  # type: ignore[no-untyped-call]
        mapped: Any = cuda.mapped_array(shape, dtype=dtype)
        if self.simulated:  # the simulator's FakeCUDAArray wraps a numpy array
            return mapped._ary, mapped
        # np.ndarray.view, not numba's DeviceNDArray.view that MappedNDArray inherits first
        return np.ndarray.view(mapped, np.ndarray), self._device_token(mapped)

    def _device_token(self, array: Any) -> Any:
        return array

    def pin(self, array: NDArray[Any]) -> Any:
        """Page-lock ``array`` in place; unpinned when the returned object is dropped."""
        if self.simulated:
            return object()
        return _PortablePin(array)

    def map_in_place(self, array: NDArray[Any]) -> tuple[Any, Any]:
        """Pin and map ``array`` in place (numba's ``cuda.mapped``), without its
        context manager: the pin lives as long as the returned object."""
        if self.simulated:
            from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

            return object(), FakeCUDAArray(array)  # type: ignore[no-untyped-call]
        from numba.cuda.cudadrv import devicearray, driver

        pm = cuda.current_context().mempin(
            array, driver.host_pointer(array), driver.host_memory_size(array), mapped=True
        )
        device = devicearray.from_array_like(array, gpu_data=pm)  # type: ignore[arg-type]
        return pm, self._device_token(device)

    def kernel_arg(self, device_buffer: Any) -> Any:
        return device_buffer

    def array_interface(self, device_buffer: Any) -> dict[str, Any]:
        if self.simulated:
            raise TypeError(
                "__cuda_array_interface__ needs a real GPU: numba's simulator has no device "
                "pointers to share."
            )
        return dict(self.kernel_arg(device_buffer).__cuda_array_interface__)

    def stream_handle(self, stream: Any) -> int | None:
        if self.simulated:
            return None
        return int(stream.handle) or None

    def wait_event_handle(self, stream_handle: int, event: Any) -> None:
        self.wait_event(cuda.external_stream(stream_handle), event)

    def device_ordinal(self) -> int:
        return self.device

    def adopt_stream(self, handle: int) -> Any:
        if self.simulated:
            raise TypeError("numba's simulator has no driver streams to adopt")
        return cuda.external_stream(handle)

    def adopt_device(self, obj: Any) -> tuple[Any, tuple[int, ...], np.dtype[Any], int | None]:
        array, stream = _foreign_array(obj, self.simulated)
        return self._device_token(array), tuple(array.shape), np.dtype(array.dtype), stream

    # -- streams -------------------------------------------------------------
    def new_stream(self) -> Any:
        with self._here():
            return cuda.stream()

    def close_stream(self, stream: Any) -> None:
        # numba destroys the stream when the object is collected; the driver lets
        # queued work finish first (cuStreamDestroy does not wait, nor cancel).
        del stream

    def sync_stream(self, stream: Any) -> None:
        stream.synchronize()

    # -- work ----------------------------------------------------------------
    # On the simulator the CPU does the copies and runs the kernels, at once: guard
    # mode's protection of the host memory they touch is lifted around them (a chained
    # download writes memory its upload protected; a kernel reads a mapped array).
    def copy_htod(self, stream: Any, dst: Any, src: NDArray[Any]) -> None:
        if self.simulated:
            lifted((src,), lambda: dst.copy_to_device(src, stream=stream), writes=False)
        else:
            dst.copy_to_device(src, stream=stream)

    def copy_dtoh(self, stream: Any, dst: NDArray[Any], src: Any) -> None:
        if self.simulated:
            lifted((dst,), lambda: src.copy_to_host(dst, stream=stream))
        else:
            src.copy_to_host(dst, stream=stream)

    def copy_dtod(self, stream: Any, dst: Any, src: Any) -> None:
        dst.copy_to_device(src, stream=stream)

    def launch(
        self,
        stream: Any,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        args: Sequence[Any],
    ) -> None:
        if self.simulated:
            lifted(args, lambda: kernel[griddim, blockdim, stream](*args))
        else:
            with self._here():
                kernel[griddim, blockdim, stream](*args)

    # -- events --------------------------------------------------------------
    def record(self, stream: Any) -> Any:
        if self._events:
            event = self._events.pop()
        elif self.simulated:  # the simulator's event() takes no arguments
            event = cuda.event()
        else:
            with self._here():  # an event belongs to the context it was created in
                event = cuda.event(timing=False)
            if len(self._siblings) > 1:
                self._owners[id(event)] = (event, self)
        event.record(stream)
        return event

    def query(self, event: Any) -> bool:
        if self.simulated:  # the simulator's Event has no query(): all work is done
            return True
        return bool(event.query())

    def sync_event(self, event: Any) -> None:
        event.synchronize()

    def wait_event(self, stream: Any, event: Any) -> None:
        event.wait(stream)

    def release_event(self, event: Any) -> None:
        pool = self._events
        if len(self._siblings) > 1:  # back to the pool of the device that made it
            owner = self._owners.get(self._event_key(event))
            if owner is not None:
                pool = owner[1]._events
        if len(pool) < 256:
            pool.append(event)

    def _event_key(self, event: Any) -> int:
        return id(event)


def _foreign_array(obj: Any, simulated: bool) -> tuple[Any, int | None]:
    """(numba device array over ``obj``'s memory, the stream its producer named)."""
    if simulated:
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        if isinstance(obj, FakeCUDAArray):
            return obj, None
        raise TypeError(
            f"numba's simulator adopts only its own device arrays, not {type(obj).__name__}"
        )
    if isinstance(obj, np.ndarray):
        raise TypeError(
            "cannot adopt a numpy array: it is host memory. Upload it into an nx.device_array "
            "(pinned first), or adopt a device array."
        )
    if cuda.is_cuda_array(obj):
        desc = dict(obj.__cuda_array_interface__)
        stream = desc.get("stream")
        desc["stream"] = None  # ordered on the device by numbaxfer, not synced on the host
        array = cuda.from_cuda_array_interface(desc, owner=obj, sync=False)
        return array, (int(stream) if stream not in (None, 1, 2) else None)
    device = getattr(obj, "__dlpack_device__", None)
    if hasattr(obj, "__dlpack__") and device is not None:
        kind = int(device()[0])
        if kind != 2:  # kDLCUDA: device memory (not host, pinned host or another vendor)
            raise TypeError(
                f"cannot adopt {type(obj).__name__}: its DLPack device type is {kind}, not "
                "CUDA device memory (2)."
            )
        import importlib

        smv: Any = importlib.import_module("cuda.core.utils").StridedMemoryView
        view: Any = smv.from_dlpack(obj, stream_ptr=-1)
        itemsize = np.dtype(view.dtype).itemsize
        strides = None if view.strides is None else tuple(s * itemsize for s in view.strides)
        desc = {
            "shape": tuple(view.shape),
            "strides": strides,
            "typestr": np.dtype(view.dtype).str,
            "data": (int(view.ptr), bool(view.readonly)),
            "version": 3,
            "stream": None,
        }
        return cuda.from_cuda_array_interface(desc, owner=(obj, view), sync=False), None
    raise TypeError(
        f"cannot adopt {type(obj).__name__}: it has neither __cuda_array_interface__ nor __dlpack__"
    )


def _portable_pinned(
    shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"]
) -> NDArray[Any]:
    """``cuda.pinned_array`` with CU_MEMHOSTALLOC_PORTABLE: page-locked for every
    context of the process, so any device's copies may use it."""
    nbytes = max(1, int(np.prod(shape, dtype=np.int64))) * dtype.itemsize
    buffer: Any = cuda.current_context().memhostalloc(nbytes, portable=True)
    return np.ndarray(shape=shape, dtype=dtype, order=order, buffer=buffer)


class _PortablePin:
    """``array`` page-locked in place for every context (cuMemHostRegister with
    CU_MEMHOSTREGISTER_PORTABLE); unregistered when this object is collected."""

    __slots__ = ("__weakref__", "array")

    def __init__(self, array: NDArray[Any]) -> None:
        from cuda.bindings import driver as drv

        cuda.current_context()  # a context must be current to register
        ptr, size = int(array.ctypes.data), int(array.nbytes)
        flags = drv.CU_MEMHOSTREGISTER_PORTABLE
        (err,) = drv.cuMemHostRegister(ptr, size, flags)
        if err:
            raise RuntimeError(f"numbaxfer: cuMemHostRegister (portable) failed: {err!r}")
        self.array = array  # the memory stays allocated while pinned
        weakref.finalize(self, drv.cuMemHostUnregister, ptr)


def _ctx_handle(ctx: Any) -> Any:
    """The driver handle of a numba context (a ``CUcontext``)."""
    return ctx.handle


def _memory(buf: Any) -> tuple[int, int]:
    """(device pointer, bytes) of a numba device array or a ``_DeviceMemory``."""
    if isinstance(buf, _DeviceMemory):
        return buf.ptr, buf.nbytes
    return int(buf.__cuda_array_interface__["data"][0]), int(buf.nbytes)


class _DeviceMemory:
    """A numba device array and its raw pointer, looked up once at allocation."""

    __slots__ = ("array", "nbytes", "ptr")

    def __init__(self, array: Any) -> None:
        self.array = array
        self.ptr = int(array.__cuda_array_interface__["data"][0])
        self.nbytes = int(array.nbytes)


class _StreamHandle:
    """A numba stream and its driver handle."""

    __slots__ = ("handle", "stream")

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.handle = stream.handle


class BindingsBackend(NumbaBackend):
    """The fast path on a real GPU: numba allocates and launches kernels; copies,
    events and stream waits go straight to the driver through cuda.bindings (which
    numba-cuda already depends on), skipping numba's per-call Python checks. Events
    come from a pool: no transfer creates one.

    numbaxfer has already checked shapes, dtypes, contiguity and pinning before any
    of these calls, which is why they can be this thin.
    """

    name = "numba"

    def __init__(self, device: int | None = None, siblings: dict[int, Any] | None = None) -> None:
        super().__init__(device, siblings)
        from cuda.bindings import driver

        self._drv = driver
        self._not_ready = driver.CUresult.CUDA_ERROR_NOT_READY
        self._no_timing = driver.CUevent_flags.CU_EVENT_DISABLE_TIMING
        self._local = threading.local()
        with self._here():
            cuda.current_context()  # make numba's context current on this thread

    def describe(self) -> str:
        return super().describe() + " (fast path: cuda.bindings copies and pooled events)"

    def _check(self, err: Any, what: str) -> None:
        if err:
            _, text = self._drv.cuGetErrorString(err)
            name = text.decode() if isinstance(text, bytes) else str(text)
            raise RuntimeError(f"numbaxfer: {what} failed: {err!r}: {name}")

    def _ensure_context(self) -> None:
        if not getattr(self._local, "ready", False):
            cuda.current_context()  # numba makes its context current on this thread
            self._local.ready = True

    # memory: numba allocates; we remember the pointers
    def alloc_device(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> Any:
        with self._here():
            return _DeviceMemory(cuda.device_array(shape, dtype=dtype, order=order))

    def _device_token(self, array: Any) -> Any:
        return _DeviceMemory(array)

    def device_view(self, device_buffer: Any, start: int, stop: int) -> Any:
        return _DeviceMemory(device_buffer.array[start:stop])

    def host_memory(self, buf: NDArray[Any]) -> Any:
        return (buf, int(buf.ctypes.data), int(buf.nbytes))

    def kernel_arg(self, device_buffer: Any) -> Any:
        return device_buffer.array

    def stream_handle(self, stream: Any) -> int | None:
        return int(stream.handle) or None

    def adopt_stream(self, handle: int) -> Any:
        return _StreamHandle(cuda.external_stream(handle))

    def wait_event_handle(self, stream_handle: int, event: Any) -> None:
        (err,) = self._drv.cuStreamWaitEvent(stream_handle, event, 0)
        self._check(err, "cuStreamWaitEvent")

    def new_stream(self) -> Any:
        with self._here():
            return _StreamHandle(cuda.stream())

    def sync_stream(self, stream: Any) -> None:
        (err,) = self._drv.cuStreamSynchronize(stream.handle)
        self._check(err, "cuStreamSynchronize")

    def copy_htod(self, stream: Any, dst: Any, src: Any) -> None:
        self._ensure_context()
        (err,) = self._drv.cuMemcpyHtoDAsync(dst.ptr, src[1], src[2], stream.handle)
        self._check(err, "cuMemcpyHtoDAsync")

    def copy_dtoh(self, stream: Any, dst: Any, src: Any) -> None:
        self._ensure_context()
        (err,) = self._drv.cuMemcpyDtoHAsync(dst[1], src.ptr, dst[2], stream.handle)
        self._check(err, "cuMemcpyDtoHAsync")

    def copy_dtod(self, stream: Any, dst: Any, src: Any) -> None:
        self._ensure_context()
        (err,) = self._drv.cuMemcpyDtoDAsync(dst.ptr, src.ptr, dst.nbytes, stream.handle)
        self._check(err, "cuMemcpyDtoDAsync")

    def launch(
        self,
        stream: Any,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        args: Sequence[Any],
    ) -> None:
        if len(self._siblings) == 1:
            kernel[griddim, blockdim, stream.stream](*args)
        else:
            with self._here():
                kernel[griddim, blockdim, stream.stream](*args)

    def record(self, stream: Any) -> Any:
        self._ensure_context()
        if self._events:
            event = self._events.pop()
        else:
            with self._here():  # an event belongs to the context it was created in
                err, event = self._drv.cuEventCreate(self._no_timing)
            self._check(err, "cuEventCreate")
            if len(self._siblings) > 1:
                self._owners[int(event)] = (event, self)
        (err,) = self._drv.cuEventRecord(event, stream.handle)
        self._check(err, "cuEventRecord")
        return event

    def query(self, event: Any) -> bool:
        (err,) = self._drv.cuEventQuery(event)
        if err == self._not_ready:
            return False
        self._check(err, "cuEventQuery")
        return True

    def sync_event(self, event: Any) -> None:
        (err,) = self._drv.cuEventSynchronize(event)
        self._check(err, "cuEventSynchronize")

    def wait_event(self, stream: Any, event: Any) -> None:
        (err,) = self._drv.cuStreamWaitEvent(stream.handle, event, 0)
        self._check(err, "cuStreamWaitEvent")

    def _event_key(self, event: Any) -> int:
        return int(event)
