"""numbaxfer's typed stubs for ``numba.cuda.cudadrv.devices`` (numba-cuda 0.30.x).

``numba.cuda.gpus`` is the ``_DeviceList`` below; ``numba.cuda.list_devices()``
returns that same object (not a ``list``). Iterating it or indexing it yields
``_DeviceContextManager`` objects, which proxy the attributes of a
``driver.Device`` and can be used as ``with cuda.gpus[1]: ...``.
"""  # noqa: PYI021

from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, TypeVar, overload

from .driver import Context, Device

_F = TypeVar("_F", bound=Callable[..., Any])

class _DeviceList:
    @property
    def lst(self) -> list[_DeviceContextManager]: ...
    @overload
    def __getitem__(self, devnum: int) -> _DeviceContextManager: ...
    @overload
    def __getitem__(self, devnum: slice) -> list[_DeviceContextManager]: ...
    def __iter__(self) -> Iterator[_DeviceContextManager]: ...
    def __len__(self) -> int: ...
    @property
    def current(self) -> _DeviceContextManager | None: ...

class _DeviceContextManager:
    # Context manager that makes a device current; proxies ``driver.Device``.
    # Forwarded from the wrapped Device; everything else goes through __getattr__.
    id: int
    name: str
    uuid: str
    compute_capability: tuple[int, int]
    supports_float16: bool
    supports_bfloat16: bool
    supports_fp8: bool
    def __init__(self, device: Device) -> None: ...
    def get_primary_context(self) -> Context: ...
    def reset(self) -> None: ...
    def __getattr__(self, item: str) -> Any: ...
    def __enter__(self) -> None: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None: ...

gpus: _DeviceList

def get_context(devnum: int | None = None) -> Context: ...
def require_context(fn: _F) -> _F: ...
def reset() -> None: ...

# Every name of the real module that these stubs do not describe is Any, so that
# opting in to the stubs never turns working code into attr-defined errors.
from _typeshed import Incomplete as _Incomplete  # noqa: E402

def __getattr__(name: str) -> _Incomplete: ...
