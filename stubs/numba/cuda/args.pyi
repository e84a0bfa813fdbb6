"""numbaxfer's typed stubs for ``numba.cuda.args`` (numba-cuda 0.30.x).

Kernel-argument hints: wrap a host array in ``In`` (copy to device only),
``Out`` (copy back only) or ``InOut`` (both; the default for host arrays).
"""  # noqa: PYI021

from collections.abc import Callable
from typing import Any

from .cudadrv.driver import Stream

class ArgHint:
    value: Any
    def __init__(self, value: Any) -> None: ...
    def to_device(self, retr: list[Callable[[], object]], stream: Stream | int = 0) -> Any: ...

class In(ArgHint): ...

class Out(ArgHint):
    copy_input: bool

class InOut(Out): ...

def wrap_arg(value: Any, default: type[ArgHint] = ...) -> ArgHint: ...

# Every name of the real module that these stubs do not describe is Any, so that
# opting in to the stubs never turns working code into attr-defined errors.
from _typeshed import Incomplete as _Incomplete  # noqa: E402

def __getattr__(name: str) -> _Incomplete: ...
