"""numbaxfer stubs for cuda.bindings (cuda-python 12.x/13.x)."""

# Every name of the real module that these stubs do not describe is Any, so that
# opting in to the stubs never turns working code into attr-defined errors.
from _typeshed import Incomplete as _Incomplete  # noqa: E402

def __getattr__(name: str) -> _Incomplete: ...
