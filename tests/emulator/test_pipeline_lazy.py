"""nx.Pipeline on the lazy emulator: nothing runs until wait(), and the result is right."""

from __future__ import annotations

import numpy as np
import pytest

import numbaxfer as nx
from tests.cuda.test_pipeline import CHUNK, TOTAL, source, step


def test_pipeline_is_right_when_copies_run_late() -> None:
    pipe = nx.Pipeline(CHUNK, np.float32, slots=3)
    dst = nx.pinned_array(TOTAL, np.float32)
    run = pipe.map(source(), into=dst, step=step)
    with pytest.raises(nx.UseAfterTransferError):
        dst.read()  # type: ignore[use-after-transfer]  # on a GPU this would be a stale read
    src, dst = run.wait()
    assert np.array_equal(dst.read(), 2.0 * src.read() + 1.0)
