"""The property tests have teeth: with any one runtime rule switched off, they fail.

Each switch (switches.py) turns one rule off by monkeypatching; the same generator
then has to find a program whose result is wrong, or whose offending call no longer
raises the documented error. The search is derandomized (the same programs every
run) and stops at the first failure.
"""

from __future__ import annotations

import time

import pytest
from hypothesis.stateful import run_state_machine_as_test

from .programs import HUNT, CheckedPrograms, Violation
from .switches import SWITCHES


@pytest.mark.parametrize("rule", list(SWITCHES))
def test_switching_a_rule_off_is_caught(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    SWITCHES[rule](monkeypatch)
    CheckedPrograms.started = 0
    start = time.perf_counter()
    with pytest.raises(Violation) as found:
        run_state_machine_as_test(CheckedPrograms, settings=HUNT)  # type: ignore[no-untyped-call, unused-ignore]  # older hypothesis: untyped
    print(
        f"\n{rule}: {found.value.kind} in program {CheckedPrograms.started} "
        f"({time.perf_counter() - start:.1f} s): {found.value}"
    )
