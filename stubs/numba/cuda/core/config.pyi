"""numbaxfer's typed stubs for ``numba.cuda.core.config`` (numba-cuda 0.30.x).

Settings read from ``NUMBA_*`` environment variables when numba-cuda is
imported (and by ``reload_config()``). Most flags are ``int`` (``0``/``1``),
not ``bool``. Only the CUDA-related settings are typed; any other setting is
``Any`` (module ``__getattr__``).
"""  # noqa: PYI021

from typing import Any

from _typeshed import Incomplete

MACHINE_BITS: int
PYVERSION: tuple[int, int]

DEVELOPER_MODE: int
DEBUG: int
DISABLE_PERFORMANCE_WARNINGS: int
# An ``_OptLevel`` (an int subclass) holding 0 to 3, or "max".
OPT: Any

ENABLE_CUDASIM: int
DISABLE_CUDA: int
CUDA_ARRAY_INTERFACE_SYNC: int
CUDA_WARN_ON_IMPLICIT_COPY: int
CUDA_LOW_OCCUPANCY_WARNINGS: int
CUDA_PER_THREAD_DEFAULT_STREAM: int
CUDA_DEBUGINFO_DEFAULT: int
CUDA_DEFAULT_PTX_CC: tuple[int, int]
FORCE_CUDA_CC: tuple[int, int] | None
CUDA_MEMORY_MANAGER: str
CUDA_DEALLOCS_COUNT: int
CUDA_DEALLOCS_RATIO: float
CUDA_LOG_LEVEL: str
CUDA_LOG_API_ARGS: int
CUDA_LOG_SIZE: int
CUDA_VERBOSE_JIT_LOG: int
CUDA_DRIVER: str
CUDA_INCLUDE_PATH: str

def reload_config() -> None: ...
def __getattr__(name: str) -> Incomplete: ...
