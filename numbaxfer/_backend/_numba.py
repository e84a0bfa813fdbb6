"""numba-cuda backend: the GPU, or numba's simulator under ``NUMBA_ENABLE_CUDASIM=1``.

Copies go through numba's device-array methods with an explicit stream; events are
pooled (creating one costs ~14 us through numba, recording ~2.6 us). Nothing here
synchronizes more than the one event or stream it is asked to.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numba import cuda
from numba.cuda.core import config as numba_cuda_config
from numpy.typing import NDArray

from .._guard import alloc_pages, guard_enabled, lifted

__all__ = ["BindingsBackend", "NumbaBackend"]


class NumbaBackend:
    """The backend numbaxfer uses by default."""

    name = "numba"

    def __init__(self) -> None:
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

    def describe(self) -> str:
        if self.simulated:
            return "numba-cuda simulator (NUMBA_ENABLE_CUDASIM=1; copies are synchronous)"
        return f"numba-cuda on {cuda.get_current_device().name}"

    # -- memory --------------------------------------------------------------
    def alloc_pinned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]:
        if self.simulated and guard_enabled():  # the simulator's is ordinary numpy memory
            return alloc_pages(shape, dtype, order)
        return cuda.pinned_array(shape, dtype=dtype, order=order)  # cuMemHostAlloc: page-aligned

    def alloc_device(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> Any:
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
        from numba.cuda.cudadrv import driver

        return cuda.current_context().mempin(
            array, driver.host_pointer(array), driver.host_memory_size(array), mapped=False
        )

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
        return 0 if self.simulated else int(cuda.get_current_device().id)

    def adopt_stream(self, handle: int) -> Any:
        if self.simulated:
            raise TypeError("numba's simulator has no driver streams to adopt")
        return cuda.external_stream(handle)

    def adopt_device(self, obj: Any) -> tuple[Any, tuple[int, ...], np.dtype[Any], int | None]:
        array, stream = _foreign_array(obj, self.simulated)
        return self._device_token(array), tuple(array.shape), np.dtype(array.dtype), stream

    # -- streams -------------------------------------------------------------
    def new_stream(self) -> Any:
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
            kernel[griddim, blockdim, stream](*args)

    # -- events --------------------------------------------------------------
    def record(self, stream: Any) -> Any:
        if self._events:
            event = self._events.pop()
        else:  # the simulator's event() takes no arguments
            event = cuda.event() if self.simulated else cuda.event(timing=False)
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
        if len(self._events) < 256:
            self._events.append(event)


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

    def __init__(self) -> None:
        super().__init__()
        from cuda.bindings import driver

        self._drv = driver
        self._not_ready = driver.CUresult.CUDA_ERROR_NOT_READY
        self._no_timing = driver.CUevent_flags.CU_EVENT_DISABLE_TIMING
        self._local = threading.local()
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
        kernel[griddim, blockdim, stream.stream](*args)

    def record(self, stream: Any) -> Any:
        self._ensure_context()
        if self._events:
            event = self._events.pop()
        else:
            err, event = self._drv.cuEventCreate(self._no_timing)
            self._check(err, "cuEventCreate")
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
