"""numbaxfer's typed stubs for ``numba.cuda.simulator`` (numba-cuda 0.30.x), minimal.

With ``NUMBA_ENABLE_CUDASIM=1``, ``numba.cuda`` re-exports this module. Only
the objects whose types differ from the real implementation are described:

* ``Event`` has ``record``, ``wait``, ``synchronize`` and ``elapsed_time``
  (always ``-1.0``) but **no** ``query()``; ``event`` is the class itself.
* ``stream`` is a class (``default_stream``, ``legacy_default_stream`` and
  ``per_thread_default_stream`` are aliases of it) with only
  ``synchronize()`` and ``auto_synchronize()``; ``external_stream`` raises.
* ``jit`` returns ``FakeCUDAKernel`` objects.
"""  # noqa: PYI021

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, overload

from typing_extensions import Self

class Event:
    def record(self, stream: object = 0) -> None: ...
    def wait(self, stream: object = 0) -> None: ...
    def synchronize(self) -> None: ...
    def elapsed_time(self, event: Event) -> float: ...

event = Event

class stream:
    @contextmanager
    def auto_synchronize(self) -> Iterator[None]: ...
    def synchronize(self) -> None: ...

default_stream = stream
legacy_default_stream = stream
per_thread_default_stream = stream

def external_stream(ptr: int) -> stream: ...
def select_device(dev: int = 0) -> None: ...
def synchronize() -> None: ...
def close() -> None: ...
def detect() -> None: ...
def is_supported_version() -> bool: ...
def is_float16_supported() -> bool: ...
def is_bfloat16_supported() -> bool: ...
def is_fp8_supported() -> bool: ...
def declare_device(*args: Any, **kwargs: Any) -> None: ...
@contextmanager
def defer_cleanup() -> Iterator[None]: ...

class FakeCUDAKernel:
    # The simulator's stand-in for ``CUDADispatcher``; runs kernels on CPU threads.
    fn: Callable[..., Any]
    extensions: list[Any]
    grid_dim: tuple[int, int, int] | None
    block_dim: tuple[int, int, int] | None
    stream: object
    dynshared_size: int
    def __init__(
        self,
        fn: Callable[..., Any],
        device: bool,
        fastmath: bool = False,
        extensions: tuple[Any, ...] = (),
        debug: bool = False,
    ) -> None: ...
    # A device function is called directly; a kernel through ``kernel[grid, block]``.
    def __call__(self, *args: object) -> Any: ...
    # Stores the launch configuration on the kernel itself and returns it.
    def __getitem__(self, configuration: tuple[Any, ...]) -> Self: ...
    def bind(self) -> None: ...
    def specialize(self, *args: object) -> Self: ...
    def forall(self, ntasks: int, tpb: int = 0, stream: object = 0, sharedmem: int = 0) -> Self: ...
    @property
    def overloads(self) -> dict[Any, Any]: ...
    @property
    def py_func(self) -> Callable[..., Any]: ...

@overload
def jit(
    func_or_sig: Callable[..., Any],
    device: bool = False,
    debug: bool | None = None,
    argtypes: None = None,
    inline: bool = False,
    restype: None = None,
    fastmath: bool = False,
    link: None = None,
    boundscheck: bool | None = None,
    opt: bool | None = None,
    cache: bool | None = None,
    shared_memory_carveout: str | int | None = None,
) -> FakeCUDAKernel: ...
@overload
def jit(
    func_or_sig: str | tuple[Any, ...] | list[Any] | None = None,
    device: bool = False,
    debug: bool | None = None,
    argtypes: None = None,
    inline: bool = False,
    restype: None = None,
    fastmath: bool = False,
    link: None = None,
    boundscheck: bool | None = None,
    opt: bool | None = None,
    cache: bool | None = None,
    shared_memory_carveout: str | int | None = None,
) -> Callable[[Callable[..., Any]], FakeCUDAKernel]: ...

# Every name of the real module that these stubs do not describe is Any, so that
# opting in to the stubs never turns working code into attr-defined errors.
from _typeshed import Incomplete as _Incomplete  # noqa: E402

def __getattr__(name: str) -> _Incomplete: ...
