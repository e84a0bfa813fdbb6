"""Fixtures for the mypy-plugin tests: one cold mypy run over all case files.

The case-file format and the helpers are in ``support.py``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .support import CASES_DIR, MypyRun, mypy_args, parse_output, run_mypy


@pytest.fixture(scope="session")
def case_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


@pytest.fixture(scope="session")
def mypy_cold(case_cache_dir: Path) -> MypyRun:
    """One cold mypy run over every case file."""
    stdout, stderr, status = run_mypy(mypy_args(case_cache_dir, str(CASES_DIR)))
    return MypyRun(stdout, stderr, status, parse_output(stdout))


@pytest.fixture
def warm_cache(mypy_cold: MypyRun, case_cache_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the cold run's cache: the stubs of numpy & co. are warm in it."""
    target = tmp_path / "warm-cache"
    shutil.copytree(case_cache_dir, target)
    return target
