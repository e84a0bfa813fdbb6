"""Compile every kernel of the project to PTX, without a GPU.

    python -m tests.compile_check    (from the repository root, NUMBA_ENABLE_CUDASIM unset)

(As a module: run as a script, ``tests/`` would come first on sys.path, and
``tests/cuda`` would shadow the ``cuda`` package of cuda-python.)

numba-cuda's ``cu13`` extra brings NVVM and NVRTC as wheels, so ``numba.cuda.compile_ptx``
works on a machine with no GPU and no CUDA driver. This compiles each ``@cuda.jit``
kernel of ``tests/kernels.py``, ``examples/`` and ``bench/`` for two architectures, with
float32 arrays for the parameters annotated ``Any`` (``float``: float64, ``int``: int64).
A numpy or numba-cuda release that breaks compilation of ordinary kernels fails here,
loudly, instead of only on a GPU host. Exit status 1 on any failure.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [
    ROOT / "tests" / "kernels.py",
    *sorted((ROOT / "examples").glob("*.py")),
    *sorted((ROOT / "bench").glob("*.py")),
]
ARCHS = [(8, 0), (9, 0)]
#: Imports of examples that the compile check's environment (numba-cuda's cu13 extra,
#: without the dev extra) may lack: examples/dask_streaming.py needs Dask.
OPTIONAL = frozenset({"distributed", "cloudpickle"})
SCALARS = {"float": "float64", "int": "int64", "bool": "boolean"}


def load(path: Path) -> ModuleType:
    name = f"_compile_check_{path.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def signature_of(py_func: Any) -> str:
    params = inspect.signature(py_func).parameters.values()
    types = [SCALARS.get(str(p.annotation), "float32[::1]") for p in params]
    return f"void({', '.join(types)})"


def main() -> int:
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        print("compile-check: NUMBA_ENABLE_CUDASIM=1 is set; the simulator cannot compile")
        return 1
    t0 = time.monotonic()
    from importlib.metadata import version

    import numba
    import numpy as np
    from numba import cuda
    from numba.cuda.dispatcher import CUDADispatcher

    print(f"numba {numba.__version__}, numba-cuda {version('numba-cuda')}, numpy {np.__version__}")
    kernels: list[tuple[str, CUDADispatcher]] = []
    for path in SOURCES:
        try:
            mod = load(path)
        except ModuleNotFoundError as exc:
            if exc.name not in OPTIONAL:
                raise
            print(f"skip {path.relative_to(ROOT)}: needs {exc.name} (the dev extra)")
            continue
        for attr, value in vars(mod).items():
            if isinstance(value, CUDADispatcher) and value.py_func.__module__ == mod.__name__:
                kernels.append((f"{path.relative_to(ROOT)}:{attr}", value))
    failures = 0
    for label, kernel in kernels:
        sig = signature_of(kernel.py_func)
        for cc in ARCHS:
            try:
                ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=cc)
            except Exception as exc:
                failures += 1
                print(f"FAIL {label} {sig} sm_{cc[0]}{cc[1]}: {type(exc).__name__}: {exc}")
                continue
            if ".entry" not in ptx or f".target sm_{cc[0]}{cc[1]}" not in ptx:
                failures += 1
                print(f"FAIL {label} sm_{cc[0]}{cc[1]}: no kernel entry in the PTX")
    n = len(kernels) * len(ARCHS)
    print(
        f"compile-check: {n - failures} of {n} kernel compilations passed "
        f"({len(kernels)} kernels, {', '.join(f'sm_{a}{b}' for a, b in ARCHS)}; "
        f"{time.monotonic() - t0:.0f} s)"
    )
    if not kernels:
        print("compile-check: no kernel found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
