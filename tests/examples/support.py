"""Loading the examples (examples/ is a folder of scripts, not a package)."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"

#: The gallery of issue 7, one pattern each (examples/README.md has the table).
GALLERY = (
    "scoped_pinning",
    "persistent_output",
    "ping_pong",
    "copy_compute_events",
    "split_streams",
    "staging_function",
    "staging_loop",
    "pool_watcher",
    "mapped_zero_copy",
    "asyncio_streams",
    "pageable",
    "exception_safety",
)


@cache
def load(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` once (``name`` may be ``bugs/seed_bug``)."""
    path = EXAMPLES_DIR / f"{name}.py"
    module_name = "numbaxfer_examples." + name.replace("/", ".")
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
