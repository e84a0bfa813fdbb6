"""What the GPU race tests share: the numba backend for the module, and a report of the
counts, printed at the end and written as JSON where an environment variable names a
file (tests/gpu/RESULTS.md is made from those files)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from typing import Any

from numba import cuda

from numbaxfer import _backend


def numba_backend_and_report(
    title: str, env_var: str, counts: dict[str, Any], meta: dict[str, Any]
) -> Iterator[None]:
    """The body of a module-scoped autouse fixture: the numba backend while the module's
    tests run, then ``counts`` printed and, if ``$env_var`` names a file, written there
    with ``meta``."""
    previous = _backend._current
    _backend.set_backend("numba")
    yield
    _backend._current = previous
    print(f"\n{title} on", cuda.get_current_device().name, file=sys.stderr)
    for name, c in counts.items():
        print(f"  {name:<60} {c}", file=sys.stderr)
    path = os.environ.get(env_var)
    if path:
        with open(path, "w") as f:
            json.dump({**meta, "counts": counts}, f, indent=2)
