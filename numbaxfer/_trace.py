"""Optional observability: NVTX ranges for Nsight Systems, and debug logging of the
cross-stream waits numbaxfer inserts. Both cost one attribute test when off.

* ``NUMBAXFER_NVTX=1`` (read at import): every upload, download, copy, launch and wait
  is an NVTX range named after the operation and its arrays, through the NVTX library
  that CUDA ships (``libnvToolsExt``, found by ctypes; a warning says so if it is
  missing). Off by default.
* ``logging.getLogger("numbaxfer")`` at DEBUG level: one record per cross-stream event
  wait numbaxfer enqueues (which stream waits for which, for which array).
"""

from __future__ import annotations

import ctypes
import logging
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

__all__ = ["LOG", "nvtx_enabled", "nvtx_range"]

LOG: Final = logging.getLogger("numbaxfer")
_NAMES: Final = ("libnvToolsExt.so.1", "libnvToolsExt.so", "nvToolsExt64_1.dll")


def _load() -> Any:
    for name in _NAMES:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        lib.nvtxRangePushA.argtypes = [ctypes.c_char_p]
        return lib
    warnings.warn(
        "NUMBAXFER_NVTX=1 but no NVTX library (libnvToolsExt) was found: no ranges will be "
        "emitted. Install the CUDA toolkit's NVTX (e.g. the nvidia-nvtx wheel).",
        RuntimeWarning,
        stacklevel=3,
    )
    return None


_lib: Any = _load() if os.environ.get("NUMBAXFER_NVTX", "") not in ("", "0") else None


def nvtx_enabled() -> bool:
    return _lib is not None


@contextmanager
def nvtx_range(name: str) -> Iterator[None]:
    """An NVTX range around the block (only called when ``nvtx_enabled()``)."""
    _lib.nvtxRangePushA(name.encode())
    try:
        yield
    finally:
        _lib.nvtxRangePop()
