"""Small helpers shared by the handle modules: shapes, labels."""

from __future__ import annotations

import itertools
from typing import Any, Final

import numpy as np

__all__ = ["describe_transfer", "label", "normalise_shape"]

_numbers: Final[dict[str, itertools.count[int]]] = {}


def normalise_shape(shape: int | tuple[int, ...]) -> tuple[int, ...]:
    dims = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if not all(isinstance(d, (int, np.integer)) and d >= 0 for d in dims):
        raise ValueError(f"shape must be a non-negative int or a tuple of them, not {shape!r}")
    return tuple(int(d) for d in dims)


def label(kind: str, shape: tuple[int, ...], dtype: np.dtype[Any]) -> str:
    """A numbered name for messages: ``PinnedArray#3[float32, 1024]``."""
    counter = _numbers.get(kind)
    if counter is None:
        counter = _numbers[kind] = itertools.count(1)
    text = "x".join(str(d) for d in shape) or "scalar"
    return f"{kind}#{next(counter)}[{dtype}, {text}]"


def describe_transfer(kind: str, number: int, what: str, stream: str) -> str:
    return f"{kind}#{number} of {what} on {stream}"
