"""Every example of the gallery runs as a script and is right, on numba's CUDA simulator
(a machine without a GPU) or on the GPU (a GPU host: the same tests, same defaults).

Each example asserts its own result; these tests check it again from outside, check
that the script prints one line, and that examples/README.md's table lists it.
"""

from __future__ import annotations

import runpy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.examples.support import EXAMPLES_DIR, GALLERY, load

pytestmark = pytest.mark.usefixtures("numba_backend")


def _affine(n: int) -> Any:
    return 2.0 * np.arange(n, dtype=np.float32) + 1.0


#: What each example's ``main()`` returns with its default sizes.
EXPECTED: dict[str, Callable[[Any], bool]] = {
    "scoped_pinning": lambda r: np.array_equal(r, _affine(256)),
    "persistent_output": lambda r: r == [32640.0 + 256 * (k + 1) for k in range(4)],
    "ping_pong": lambda r: np.array_equal(r, _affine(6 * 128)),
    "copy_compute_events": lambda r: np.array_equal(r, _affine(4 * 128)),
    "split_streams": lambda r: np.array_equal(r, np.arange(512, dtype=np.float32) ** 2 + 1.0),
    "staging_function": lambda r: np.array_equal(r, _affine(256)),
    "staging_loop": lambda r: np.array_equal(
        r,
        sum(np.arange(128, dtype=np.float32) + (i + 1) for i in range(4))
        + np.where(np.arange(128) < 100, np.arange(128, dtype=np.float32) + 5, 0),
    ),
    "pool_watcher": lambda r: r == [float((2 * k + 1) * 128) for k in range(6)],
    "mapped_zero_copy": lambda r: np.array_equal(r, _affine(256) + 1.0),
    "asyncio_streams": lambda r: r == [3.0 * i * 128 for i in range(4)],
    "pageable": lambda r: len(r) == 2 and all("nx.pinned_copy" in m for m in r),
    "exception_safety": lambda r: r[0] == float(_affine(256).sum()) and "non-finite" in r[1],
}


def test_every_example_has_an_expectation() -> None:
    assert set(EXPECTED) == set(GALLERY)
    # Outside the gallery: the earlier examples, and dask_streaming (its own test file).
    others = {"demo", "seed_fixed", "pipeline", "dask_streaming"}
    on_disk = {p.stem for p in EXAMPLES_DIR.glob("*.py")} - others
    assert on_disk == set(GALLERY), "an example is missing from tests/examples/support.GALLERY"


@pytest.mark.parametrize("name", GALLERY)
def test_example_runs_as_a_script_and_is_right(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    namespace = runpy.run_path(str(EXAMPLES_DIR / f"{name}.py"), run_name="__main__")
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1 and printed[0].startswith(f"{name}: right"), printed
    assert EXPECTED[name](namespace["result"]), f"{name}: main() returned {namespace['result']!r}"


@pytest.mark.parametrize("name", GALLERY)
def test_example_documents_the_raw_idiom_the_hazard_and_the_fix(name: str) -> None:
    module = load(name)
    doc = module.__doc__ or ""
    assert "The raw numba idiom" in doc, f"{name}: the docstring shows no raw numba idiom"
    assert "The hazard" in doc, f"{name}: the docstring names no hazard"
    assert "\nnumbaxfer: " in doc, f"{name}: the docstring shows no numbaxfer form"
    assert callable(module.main)


def test_readme_table_maps_every_example() -> None:
    readme = (EXAMPLES_DIR / "README.md").read_text()
    for name in GALLERY:
        assert f"{name}.py" in readme, f"examples/README.md does not mention {name}.py"


def test_the_existing_examples_still_run() -> None:
    assert load("seed_fixed").main(256) == 1.0
    assert load("pipeline").main(1024, 256) >= 0.0
