"""The rules, one module each. A rule owns an error code and the engine's event kinds
it turns into messages (``messages(analysis, event)``); the engine (``flow``) knows no
wording. A new rule is a module here, added to ``RULES``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, Protocol

from mypy.errorcodes import ErrorCode

from ..flow import Analysis, Event
from ..state import Message
from . import (
    completed_twice,
    lend_escape,
    mapping_ended,
    owner_borrowed,
    pinned_ended,
    scope_ended,
    unfinished_transfer,
    use_after_transfer,
)


class Rule(Protocol):
    """What a rule module provides (modules satisfy this protocol)."""

    @property
    def CODE(self) -> ErrorCode: ...

    @property
    def EVENTS(self) -> frozenset[str]: ...

    def messages(self, an: Analysis, ev: Event) -> Iterator[Message]: ...


RULES: Final[tuple[Rule, ...]] = (
    use_after_transfer,
    lend_escape,
    completed_twice,
    unfinished_transfer,
    scope_ended,
    mapping_ended,
    pinned_ended,
    owner_borrowed,
)

USE_AFTER_TRANSFER: Final = use_after_transfer.CODE
LEND_ESCAPE: Final = lend_escape.CODE
TRANSFER_COMPLETED_TWICE: Final = completed_twice.CODE
UNFINISHED_TRANSFER: Final = unfinished_transfer.CODE
OWNER_BORROWED: Final = owner_borrowed.CODE


def collect_messages(an: Analysis) -> list[Message]:
    """Every message the analysis' events call for, in event order."""
    out: list[Message] = []
    for ev in an.events.values():
        for rule in RULES:
            if ev.kind in rule.EVENTS:
                out.extend(rule.messages(an, ev))
    return out
