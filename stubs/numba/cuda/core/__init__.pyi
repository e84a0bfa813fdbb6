"""numbaxfer's typed stubs for ``numba.cuda.core`` (numba-cuda 0.30.x).

Only the ``config`` submodule is described.
"""  # noqa: PYI021

# Every name of the real module that these stubs do not describe is Any, so that
# opting in to the stubs never turns working code into attr-defined errors.
from _typeshed import Incomplete as _Incomplete  # noqa: E402

def __getattr__(name: str) -> _Incomplete: ...
