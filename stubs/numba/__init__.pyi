"""numbaxfer's typed stubs for ``numba`` (numba 0.68 with numba-cuda 0.30.x).

Only ``numba.cuda`` is described by numbaxfer (``numba/cuda/__init__.pyi``). These
stubs shadow the whole ``numba`` package once they are on ``mypy_path``, so this file
re-exports the top level of numba itself, with the same import statements as
numba's own ``__init__.py``: numba ships ``py.typed``, and mypy reads the names below
(``njit``, ``types``, ``float64``, ``prange``, ...) from numba's sources, with the
types numba gives them. Submodules (``numba.core``, ``numba.typed``, ...) are read
from the installed numba as well. Any other name is ``Any`` (module ``__getattr__``).
"""  # noqa: PYI021

from _typeshed import Incomplete
from numba.core import config as config
from numba.core import errors as errors
from numba.core import types as types
from numba.core.decorators import cfunc as cfunc
from numba.core.decorators import jit as jit
from numba.core.decorators import jit_module as jit_module
from numba.core.decorators import njit as njit
from numba.core.errors import *
from numba.core.types import *
from numba.core.withcontexts import objmode_context as objmode
from numba.core.withcontexts import parallel_chunksize as parallel_chunksize
from numba.misc.special import gdb as gdb
from numba.misc.special import gdb_breakpoint as gdb_breakpoint
from numba.misc.special import gdb_init as gdb_init
from numba.misc.special import literal_unroll as literal_unroll
from numba.misc.special import literally as literally
from numba.misc.special import pndindex as pndindex
from numba.misc.special import prange as prange
from numba.misc.special import typeof as typeof
from numba.np.numpy_support import carray as carray
from numba.np.numpy_support import farray as farray
from numba.np.numpy_support import from_dtype as from_dtype
from numba.np.ufunc import get_num_threads as get_num_threads
from numba.np.ufunc import get_parallel_chunksize as get_parallel_chunksize
from numba.np.ufunc import get_thread_id as get_thread_id
from numba.np.ufunc import guvectorize as guvectorize
from numba.np.ufunc import set_num_threads as set_num_threads
from numba.np.ufunc import set_parallel_chunksize as set_parallel_chunksize
from numba.np.ufunc import threading_layer as threading_layer
from numba.np.ufunc import vectorize as vectorize

import numba.core.target_extension
import numba.core.withcontexts
import numba.experimental
import numba.typed

from . import cuda as cuda

__version__: Incomplete
# numba's own sources give mypy no type for it (Any), as here.
stencil: Incomplete
version_info: Incomplete

def test(argv: Incomplete, **kwds: Incomplete) -> Incomplete: ...
def __getattr__(name: str) -> Incomplete: ...
