"""Argument checks shared by the stream operations, the pool and the pipeline.

Each raises a clear error before anything is enqueued or changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._backend import Backend
from ._device import DeviceArray
from ._errors import DeviceMismatchError, PageableMemoryError, where
from ._host import PinnedArray, layout

__all__ = [
    "check_device",
    "check_host",
    "check_match",
    "check_same_backend",
    "check_same_host",
    "refuse_device",
]


def refuse_device(
    x: Any,
    op: str,
    param: str,
    backend: Backend,
    fix: str,
    site: tuple[str, int] | None = None,
    stream: str = "the stream",
) -> None:
    """Raise DeviceMismatchError: ``x`` lives on another device than the stream."""
    made = getattr(x, "_made_at", None)
    made_at = "" if made is None else f" (allocated at {where(made)})"
    at = "" if site is None else f" at {where(site)}"
    raise DeviceMismatchError(
        f"{op}(){at}: {param} {x.label}{made_at} is on device {x._backend.device} but "
        f"{stream} is on device {backend.device}. {fix}"
    )


def check_same_backend(
    x: Any,
    op: str,
    param: str,
    backend: Backend,
    site: tuple[str, int] | None = None,
    stream: str = "the stream",
) -> None:
    if x._backend is not backend:
        if x._backend.family is backend.family and isinstance(x, DeviceArray):
            refuse_device(
                x,
                op,
                param,
                backend,
                f"Enqueue it on a stream of device {x._backend.device} "
                f"(nx.stream(device={x._backend.device})), or copy it to device "
                f"{backend.device} first with stream.copy(src, to=dst) (a device-to-device "
                "copy between GPUs).",
                site,
                stream,
            )
        raise ValueError(
            f"{op}(): {param} {x.label} belongs to another backend or device "
            f"({x._backend.describe()}) than the stream ({backend.describe()}). Allocate it "
            "with the same backend as the stream."
        )


def check_same_host(x: Any, op: str, param: str, backend: Backend) -> None:
    """Host memory is portable: a pinned array of any device of the stream's host."""
    if x._backend is not backend and x._backend.family is not backend.family:
        check_same_backend(x, op, param, backend)


def check_host(x: object, op: str, param: str, backend: Backend) -> None:
    if isinstance(x, PinnedArray):
        check_same_host(x, op, param, backend)
        return
    if isinstance(x, np.ndarray):
        raise PageableMemoryError(
            f"{op}(): {param} is an ordinary numpy array (pageable memory, shape {x.shape}, "
            f"{x.dtype}). An asynchronous copy needs page-locked memory; numbaxfer does not "
            "stage it silently. For a small constant upload say so: stream.upload_staged(array, "
            "to=dev) (one host copy into a reused staging buffer). Otherwise pin it once with "
            "nx.pinned_copy(array) (one host copy), pin it "
            "in place for a block with `with nx.pinned(array) as h:`, or allocate with "
            "nx.pinned_array(shape, dtype) and fill it in a write() block."
        )
    if isinstance(x, DeviceArray):
        raise TypeError(
            f"{op}(): {param} must be host memory (nx.PinnedArray), got {x.label}; for a "
            "device-to-device copy use stream.copy(src, to=dst)."
        )
    raise TypeError(f"{op}(): {param} must be an nx.PinnedArray, not {type(x).__name__}")


def check_device(
    x: object,
    op: str,
    param: str,
    backend: Backend,
    site: tuple[str, int] | None = None,
    stream: str = "the stream",
) -> None:
    if isinstance(x, DeviceArray):
        check_same_backend(x, op, param, backend, site, stream)
        return
    if isinstance(x, (PinnedArray, np.ndarray)):
        raise TypeError(
            f"{op}(): {param} must be an nx.DeviceArray, got host memory "
            f"({type(x).__name__}). Allocate one with nx.device_array(shape, dtype)."
        )
    raise TypeError(f"{op}(): {param} must be an nx.DeviceArray, not {type(x).__name__}")


def _layout_of(x: Any) -> str:
    return layout(x._buf) if isinstance(x, PinnedArray) else str(x._layout)


def check_match(a: Any, b: Any, op: str) -> None:
    # One side is always a PinnedArray, the other a DeviceArray or PinnedArray.
    sa, da = (a._buf.shape, a._buf.dtype) if isinstance(a, PinnedArray) else (a._shape, a._dtype)
    sb, db = (b._buf.shape, b._buf.dtype) if isinstance(b, PinnedArray) else (b._shape, b._dtype)
    if sa != sb or (da is not db and da != db):
        raise ValueError(
            f"{op}(): shape or dtype mismatch: {a.label} is {a.dtype}{list(a.shape)} but "
            f"{b.label} is {b.dtype}{list(b.shape)}. Copies are element-for-element; "
            "allocate matching arrays."
        )
    la, lb = _layout_of(a), _layout_of(b)
    if la != lb:
        raise ValueError(
            f"{op}(): memory order mismatch: {a.label} is {la}-ordered but {b.label} is "
            f"{lb}-ordered. Copies are byte-for-byte; allocate both with the same order= "
            "(nx.pinned_array(..., order=...), nx.device_array(..., order=...))."
        )
