"""numbaxfer's typed stubs for ``numba`` (numba 0.68 with numba-cuda 0.30.x).

Only ``numba.cuda`` is described in detail (see ``numba/cuda/__init__.pyi``).
``njit`` / ``jit`` are typed loosely: they return the decorated function's
own type. Every other top-level name is ``Any`` (module ``__getattr__``).
Submodules without a stub here (``numba.core``, ``numba.types``, ...) are
read by mypy from the installed ``numba`` package.
"""  # noqa: PYI021

from collections.abc import Callable
from typing import Any, TypeVar, overload

from _typeshed import Incomplete

from . import cuda as cuda

_F = TypeVar("_F", bound=Callable[..., Any])

__version__: str

@overload
def njit(func: _F, /) -> _F: ...
@overload
def njit(*args: Any, **kws: Any) -> Callable[[_F], _F]: ...
@overload
def jit(signature_or_function: _F, /) -> _F: ...
@overload
def jit(
    signature_or_function: Any = None,
    locals: dict[str, Any] = ...,
    cache: bool = False,
    pipeline_class: type[Any] | None = None,
    boundscheck: bool | None = None,
    **options: Any,
) -> Callable[[_F], _F]: ...
def __getattr__(name: str) -> Incomplete: ...
