"""numbaxfer's typed stubs for ``numba.cuda.cudadrv`` (numba-cuda 0.30.x).

The package itself is empty at run time; see the ``devicearray``, ``driver``,
``devices`` and ``error`` submodules. Submodules without a stub here (``nvvm``,
``runtime``, ``linkable_code``, ...) are *not* covered: mypy then falls back to
the stale copy of ``numba.cuda`` that ships inside the ``numba`` wheel, which is
not the code that runs once numba-cuda is installed.
"""  # noqa: PYI021

# Every name of the real module that these stubs do not describe is Any, so that
# opting in to the stubs never turns working code into attr-defined errors.
from _typeshed import Incomplete as _Incomplete  # noqa: E402

def __getattr__(name: str) -> _Incomplete: ...
