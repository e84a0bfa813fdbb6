"""Pipelines, mappings, pinned pools, nx.pinned() scopes, lends of lends and thread
pairs: every program numbaxfer accepts computes the reference result under every
schedule; every program that breaks a rule raises the documented error at the offending
call and leaves all data intact; two threads on shared handles give an outcome of some
serial order (patterns_programs.py)."""

from __future__ import annotations

import os

from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from .patterns_programs import CI_PATTERNS, THOROUGH_PATTERNS, PatternPrograms

PROFILE: settings = {"ci": CI_PATTERNS, "thorough": THOROUGH_PATTERNS}[
    os.environ.get("NUMBAXFER_PROPERTY_PROFILE", "ci")
]


def test_pattern_programs_compute_the_reference_result_or_raise_the_documented_error() -> None:
    PatternPrograms.thread_findings.clear()
    run_state_machine_as_test(PatternPrograms, settings=PROFILE)  # type: ignore[no-untyped-call, unused-ignore]  # older hypothesis: untyped
    assert not PatternPrograms.thread_findings, "\n".join(PatternPrograms.thread_findings)
