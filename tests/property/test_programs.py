"""Every program numbaxfer accepts computes the reference result under every schedule;
every program that breaks a rule raises the documented error at the offending call and
leaves all data intact. And the same generator, run the numba way, finds a wrong result."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from .programs import CI, HUNT, THOROUGH, CheckedPrograms, RawPrograms, Violation

PROFILE: settings = {"ci": CI, "thorough": THOROUGH}[
    os.environ.get("NUMBAXFER_PROPERTY_PROFILE", "ci")
]


def test_programs_compute_the_reference_result_or_raise_the_documented_error() -> None:
    run_state_machine_as_test(CheckedPrograms, settings=PROFILE)  # type: ignore[no-untyped-call, unused-ignore]  # older hypothesis: untyped


def test_the_same_programs_written_the_numba_way_give_a_wrong_result() -> None:
    RawPrograms.started = 0
    with pytest.raises(Violation) as found:
        run_state_machine_as_test(RawPrograms, settings=HUNT)  # type: ignore[no-untyped-call, unused-ignore]  # older hypothesis: untyped
    assert found.value.kind == "wrong result", found.value
    print(f"\nraw mode: wrong result in program {RawPrograms.started}: {found.value}")
