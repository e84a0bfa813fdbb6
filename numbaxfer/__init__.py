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

The public names are loaded on first use (PEP 562): ``import numbaxfer`` costs
nothing until one is touched, so ``numbaxfer.mypy_plugin`` (a submodule, whose parent
package Python imports first) loads no numpy, numba or CUDA into mypy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
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

#: Each public name and the private module that defines it.
_EXPORTS: Final[dict[str, str]] = {
    "BackendSwitch": "._backend",
    "BorrowError": "._errors",
    "Capture": "._graph",
    "Consumed": "._ownership",
    "CrossStreamError": "._errors",
    "DeviceArray": "._device",
    "DeviceMismatchError": "._errors",
    "Graph": "._graph",
    "GraphRun": "._graph",
    "Kernel": "._stream",
    "Lent": "._ownership",
    "MappedArray": "._mapped",
    "Mapping": "._mapped",
    "Owned": "._ownership",
    "OwnershipError": "._errors",
    "PageableMemoryError": "._errors",
    "PinnedArray": "._host",
    "PinnedPool": "._pool",
    "PinnedScope": "._scope",
    "Pipeline": "._pipeline",
    "PipelineRun": "._pipeline",
    "Stream": "._stream",
    "StreamClosedError": "._errors",
    "Transfer": "._transfer",
    "UnfinishedTransferError": "._errors",
    "UseAfterTransferError": "._errors",
    "adopt_array": "._interop",
    "adopt_stream": "._interop",
    "capture": "._graph",
    "current_backend": "._backend",
    "device_array": "._device",
    "device_count": "._backend",
    "guard_enabled": "._guard",
    "join": "._parts",
    "kernel": "._stream",
    "mapped": "._scope",
    "mapped_array": "._mapped",
    "pinned": "._scope",
    "pinned_array": "._host",
    "pinned_copy": "._host",
    "set_guard": "._guard",
    "split": "._parts",
    "stream": "._stream",
    "use_backend": "._backend",
}

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


# At run time only: to mypy the names are the imports above, and a module __getattr__
# would turn every misspelt ``nx.name`` into ``object`` instead of an error.
if not TYPE_CHECKING:

    def __getattr__(name):
        """Load a public name from its module on first use (then it is a plain global)."""
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'numbaxfer' has no attribute {name!r}")
        value = getattr(importlib.import_module(module, __name__), name)
        globals()[name] = value
        return value

    def __dir__():
        return sorted({*globals(), *__all__})
