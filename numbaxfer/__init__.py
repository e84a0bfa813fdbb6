"""numbaxfer: asynchronous CUDA copies whose host buffers are owned by the transfer.

An async copy moves the pinned host array it reads or writes into a :class:`Transfer`;
``transfer.wait()`` hands it back when the copy has finished. Until then every use of
the moved handle raises :class:`UseAfterTransferError` at run time, and mypy with
``numbaxfer.mypy_plugin`` reports it statically.

    import numpy as np
    import numbaxfer as nx

    s = nx.stream()
    host = nx.pinned_array(1_000_000, np.float32)
    dev = nx.device_array(1_000_000, np.float32)
    with host.write() as a:
        a[:] = 1.0
    up = s.upload(host, to=dev)   # host moves into the transfer
    host = up.wait()              # and comes back when the copy is done

Backends: ``NUMBAXFER_BACKEND=emulator`` (or ``nx.use_backend("emulator")``) runs all
of this on the lazy CPU emulator, whatever was imported first.
"""

from ._backend import BackendSwitch, current_backend, device_count, use_backend
from ._device import DeviceArray, device_array
from ._errors import (
    BorrowError,
    CrossStreamError,
    DeviceMismatchError,
    OwnershipError,
    PageableMemoryError,
    StreamClosedError,
    UnfinishedTransferError,
    UseAfterTransferError,
)
from ._graph import Capture, Graph, GraphRun, capture
from ._guard import guard_enabled, set_guard
from ._host import PinnedArray, pinned_array, pinned_copy
from ._interop import adopt_array, adopt_stream
from ._mapped import MappedArray, Mapping, mapped_array
from ._ownership import Consumed, Lent, Owned
from ._parts import join, split
from ._pipeline import Pipeline, PipelineRun
from ._pool import PinnedPool
from ._scope import PinnedScope, mapped, pinned
from ._stream import Kernel, Stream, kernel, stream
from ._transfer import Transfer

__version__ = "0.1.0"

__all__ = [
    "BackendSwitch",
    "BorrowError",
    "Capture",
    "Consumed",
    "CrossStreamError",
    "DeviceArray",
    "DeviceMismatchError",
    "Graph",
    "GraphRun",
    "Kernel",
    "Lent",
    "OwnershipError",
    "MappedArray",
    "Mapping",
    "Owned",
    "PageableMemoryError",
    "PinnedArray",
    "PinnedPool",
    "PinnedScope",
    "Pipeline",
    "PipelineRun",
    "Stream",
    "StreamClosedError",
    "Transfer",
    "UnfinishedTransferError",
    "UseAfterTransferError",
    "adopt_array",
    "adopt_stream",
    "capture",
    "current_backend",
    "device_array",
    "device_count",
    "guard_enabled",
    "join",
    "kernel",
    "mapped",
    "mapped_array",
    "pinned",
    "pinned_array",
    "pinned_copy",
    "set_guard",
    "split",
    "stream",
    "use_backend",
]
