"""Raise KeyboardInterrupt at the n-th line numbaxfer's handle layer executes.

``interrupt_at(n, fn)`` runs ``fn`` with a trace function that counts line events in
frames of numbaxfer's own files (not its backends: a backend call is treated as one
step) and raises KeyboardInterrupt at the ``n``-th. It returns True if the interrupt
was raised (``fn`` then raised it), False if ``fn`` finished in fewer lines, and raises
:class:`Absorbed` if it landed in a destructor, which ignores it.

A trace function can raise where no real signal can land: at the line event a
``with`` statement's exit emits *before* it calls ``__exit__`` (CPython runs a
KeyboardInterrupt handler only at its eval-breaker checks: calls and backward jumps,
so a real interrupt at that line lands after the lock's ``__exit__`` has run).
Lines that are ``with`` statements are therefore not interrupted; every other line is.
"""

from __future__ import annotations

import linecache
import os
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import numbaxfer

PACKAGE = os.path.dirname(os.path.abspath(numbaxfer.__file__))
BACKENDS = os.path.join(PACKAGE, "_backend")


def _ours(frame: FrameType) -> bool:
    name = frame.f_code.co_filename
    return name.startswith(PACKAGE) and not name.startswith(BACKENDS)


def interrupt_at(n: int, fn: Callable[[], Any]) -> bool:
    count = 0
    fired = False

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count, fired
        if event == "line" and not fired:
            text = linecache.getline(frame.f_code.co_filename, frame.f_lineno).lstrip()
            if text.startswith(("with ", "async with ")):
                return local
            count += 1
            if count == n:
                fired = True
                raise KeyboardInterrupt(f"injected at line event {n}")
        return local

    def global_(frame: FrameType, event: str, arg: Any) -> Any:
        if fired or not _ours(frame):
            return None
        return local

    previous = sys.gettrace()
    sys.settrace(global_)
    raised = False
    try:
        fn()
    except KeyboardInterrupt:
        if not fired:
            raise
        raised = True
    finally:
        sys.settrace(previous)
    if fired and not raised:
        # The interrupt landed in a destructor (``__del__`` of garbage collected during
        # the call), where Python prints and ignores it: the call itself completed.
        raise Absorbed(n)
    return fired


class Absorbed(Exception):
    """The injected interrupt was swallowed by a destructor; nothing to check."""
