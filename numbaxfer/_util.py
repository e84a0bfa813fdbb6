"""Small helpers shared by the handle modules: shapes, labels."""

from __future__ import annotations

import itertools
from typing import Any, Final

import numpy as np

__all__ = ["check_dtype", "describe_transfer", "label", "normalise_shape"]

_numbers: Final[dict[str, itertools.count[int]]] = {}


#: The dtype kinds numbaxfer moves: bool, signed and unsigned integers, floats, complex.
PLAIN_KINDS: Final = "biufc"


def normalise_shape(shape: object, op: str = "allocate") -> tuple[int, ...]:
    """A shape as a tuple of ints, each at least 1 (refusing bools, 0-d and zero-size).

    Zero-size and 0-d arrays are refused: an empty copy has nothing to own, and numba's
    allocators give them no buffer on a GPU. Use shape ``(1,)`` for a scalar.
    """
    if isinstance(shape, (bool, np.bool_)):
        raise TypeError(f"{op}: shape must be an int or a tuple of ints, not the bool {shape!r}")
    if isinstance(shape, (int, np.integer)):
        dims: tuple[object, ...] = (shape,)
    elif isinstance(shape, (tuple, list)):
        dims = tuple(shape)
    else:
        raise TypeError(f"{op}: shape must be an int or a tuple of ints, not {shape!r}")
    if not all(
        isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)) for d in dims
    ):
        raise TypeError(f"{op}: shape must be an int or a tuple of ints, not {shape!r}")
    out = tuple(int(d) for d in dims)  # type: ignore[call-overload]
    if any(d < 0 for d in out):
        raise ValueError(f"{op}: shape {out} has a negative dimension")
    if not out or 0 in out:
        what = "0-d (shape ())" if not out else f"zero-size (shape {out})"
        raise ValueError(
            f"{op}: numbaxfer arrays have at least one element and one dimension, got a "
            f"{what} array: an empty copy has nothing to own, and numba gives such arrays no "
            "buffer on a GPU. Skip the copy when there is nothing to copy; use shape (1,) for a "
            "scalar."
        )
    return out


def check_dtype(dtype: object, op: str = "allocate") -> np.dtype[Any]:
    """``dtype`` as a numpy dtype, refusing anything but plain numbers and bools."""
    dt: np.dtype[Any] = np.dtype(dtype)  # type: ignore[call-overload]
    if dt.kind not in PLAIN_KINDS or dt.hasobject or dt.fields is not None or dt.subdtype:
        raise TypeError(
            f"{op}: dtype {dt} is not a plain number type. numbaxfer copies bool, integer, "
            "float and complex arrays (raw bytes with no Python objects in them); convert "
            "object or structured data to such arrays first."
        )
    return dt


def label(kind: str, shape: tuple[int, ...], dtype: np.dtype[Any]) -> str:
    """A numbered name for messages: ``PinnedArray#3[float32, 1024]``."""
    counter = _numbers.get(kind)
    if counter is None:
        counter = _numbers[kind] = itertools.count(1)
    text = "x".join(str(d) for d in shape) or "scalar"
    return f"{kind}#{next(counter)}[{dtype}, {text}]"


def describe_transfer(kind: str, number: int, what: str, stream: str) -> str:
    return f"{kind}#{number} of {what} on {stream}"
