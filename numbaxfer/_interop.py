"""Adopting foreign device arrays and streams (CuPy, PyTorch, numba, anything with
``__cuda_array_interface__``, ``__dlpack__`` or ``__cuda_stream__``).

Ownership rules, because numbaxfer cannot see the foreign side:

* ``nx.adopt_array(obj)`` gives a ``DeviceArray[Owned, DT]`` over ``obj``'s memory
  (no copy). numbaxfer never frees that memory: ``free()`` (or dropping the handle)
  releases numbaxfer's reference once its own work on it is done; ``obj``'s owner frees
  it. While numbaxfer works on it the foreign side must not write it (nor read what
  numbaxfer writes) except through numbaxfer's own interop (a lent array's
  ``__cuda_array_interface__`` / ``__dlpack__``, which order the consumer's stream).
  If the producer named a stream (CAI v3 ``stream``), numbaxfer's first use of the array
  on any stream waits for it on the device, not on the host.
* ``nx.adopt_stream(obj)`` gives a ``Stream[Lent]`` over a foreign stream: numbaxfer
  may enqueue on it and orders it like its own streams, but never closes or destroys
  it; the foreign owner does, after numbaxfer's transfers on it are completed.
"""

from __future__ import annotations

import itertools
from typing import Any

from ._backend import get_backend
from ._device import DeviceArray
from ._order import StreamCore
from ._ownership import Lent, Owned, caller_site
from ._stream import Stream
from ._util import check_dtype, label, normalise_shape

__all__ = ["adopt_array", "adopt_stream"]

_numbers = itertools.count(1)


def _stream_handle(obj: Any) -> int:
    if isinstance(obj, Stream):
        raise TypeError("adopt_stream() takes a foreign stream; this one is numbaxfer's own")
    if isinstance(obj, int) and not isinstance(obj, bool):
        return obj
    proto = getattr(obj, "__cuda_stream__", None)
    if proto is not None:
        _version, handle = proto() if callable(proto) else proto
        return int(handle)
    for attr in ("cuda_stream", "ptr", "handle"):  # PyTorch, CuPy, numba
        value = getattr(obj, attr, None)
        if value is not None:
            return int(value.value if hasattr(value, "value") else value)
    raise TypeError(
        f"adopt_stream() takes a stream handle (int) or an object with __cuda_stream__ "
        f"(or .cuda_stream / .ptr / .handle), not {type(obj).__name__}"
    )


def adopt_stream(obj: Any) -> Stream[Lent]:
    """A ``Stream[Lent]`` over a foreign CUDA stream (see the module docstring):
    numbaxfer may enqueue on it, orders it with its own streams, never closes it."""
    site = caller_site()
    handle = _stream_handle(obj)
    if handle in (0, 1, 2):
        raise ValueError(
            "adopt_stream(): the legacy or per-thread default stream synchronizes implicitly "
            "with other streams; numbaxfer orders only explicit streams. Create a stream."
        )
    root = get_backend()
    raw = root.adopt_stream(handle)
    backend = root.on_device(root.stream_device(raw))  # the device the stream runs on
    name = f"Stream#foreign{next(_numbers)}"
    core = StreamCore(backend, name, raw=raw)
    return Stream._adopt(core, name, None, site)  # lent: may enqueue, may not close


def adopt_array(obj: Any) -> DeviceArray[Owned, Any]:
    """A ``DeviceArray[Owned, DT]`` over a foreign device array's memory, no copy (see
    the module docstring for who frees and what the foreign side may still do).
    C-contiguous, plain-number arrays only."""
    root = get_backend()
    buf, shape, dtype, stream = root.adopt_device(obj)
    backend = root.on_device(root.buffer_device(buf))  # the device whose memory it is
    normalise_shape(shape, "nx.adopt_array()")
    check_dtype(dtype, "nx.adopt_array()")
    arr = backend.kernel_arg(buf)
    c_order = getattr(arr, "is_c_contiguous", None)
    f_order = getattr(arr, "is_f_contiguous", None)
    if c_order is not None and not c_order() and not (f_order is not None and f_order()):
        raise ValueError(
            "nx.adopt_array(): the array is not contiguous; numbaxfer copies whole "
            "contiguous arrays. Make a contiguous copy on the foreign side first."
        )
    name = label("DeviceArray", shape, dtype) + f" (adopted {type(obj).__name__})"
    dev: DeviceArray[Owned, Any] = DeviceArray._adopt(backend, buf, shape, dtype, name)
    if c_order is not None and not c_order():
        dev._layout = "F"
    if stream is not None:  # pending producer work: the first use waits on the device
        core = StreamCore(
            backend, f"the producer's stream of {name}", raw=backend.adopt_stream(stream)
        )
        core.epoch = 1
        dev._order.writers[core] = 1
    return dev
