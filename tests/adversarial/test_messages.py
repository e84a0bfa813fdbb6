"""Issue 10, class 8: misleading messages. Each error says what really happened."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx

N = 64
F32 = np.float32


def test_expired_pinned_handle_names_the_pinned_block(backend: Any) -> None:
    """Class 8 (messages): using a handle after its `nx.pinned()` block ended: the
    message speaks of the nx.pinned() block, not of a lend block."""
    with nx.pinned(np.zeros(N, F32)) as h:
        pass
    with pytest.raises(nx.OwnershipError) as err:
        h.read()
    message = str(err.value)
    assert "nx.pinned()" in message, message
    assert "lend()" not in message, message


def test_given_back_buffer_says_it_went_to_the_pool(backend: Any) -> None:
    """Class 8 (messages): after `pool.give(b)`, `b.read()` says `b` was given back to
    the pool, not that a copy may still be running."""
    pool = nx.PinnedPool(1, N, F32)
    b = pool.take()
    assert b is not None
    pool.give(b)
    with pytest.raises(nx.OwnershipError) as err:
        b.read()  # type: ignore[use-after-transfer]
    message = str(err.value)
    assert "pool" in message.lower(), message
    assert "copy may still be running" not in message, message


def test_arrays_pinned_in_place_have_distinct_numbered_labels(backend: Any) -> None:
    """Class 8 (messages): two arrays pinned in place get distinct numbered labels
    (`PinnedArray#7[...]`), so a message names one of them unambiguously."""
    with nx.pinned(np.zeros(N, F32)) as h1, nx.pinned(np.zeros(N, F32)) as h2:
        labels = [h1.label, h2.label]
    for label in labels:
        assert re.match(r"PinnedArray#\d+\[", label), label
    assert labels[0].split("[")[0] != labels[1].split("[")[0], labels
