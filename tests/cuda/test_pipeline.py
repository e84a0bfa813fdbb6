"""nx.Pipeline on the numba backend (simulator or GPU)."""

from __future__ import annotations

import numpy as np
import pytest

import numbaxfer as nx
from tests.kernels import affine

TOTAL, CHUNK = 96, 16


def step(
    s: nx.Stream[nx.Lent],
    din: nx.DeviceArray[nx.Owned, np.float32],
    dout: nx.DeviceArray[nx.Owned, np.float32],
) -> None:
    s.launch(affine, 1, CHUNK, din, dout)


def source() -> nx.PinnedArray[nx.Owned, np.float32]:
    return nx.pinned_copy(np.arange(TOTAL, dtype=np.float32))


@pytest.mark.parametrize("slots", [1, 2, 3, 4])
def test_pipeline_computes_every_chunk(slots: int) -> None:
    pipe = nx.Pipeline(CHUNK, np.float32, slots=slots)
    src, dst = pipe.map(source(), into=nx.pinned_array(TOTAL, np.float32), step=step).wait()
    assert np.array_equal(dst.read(), 2.0 * np.arange(TOTAL, dtype=np.float32) + 1.0)
    assert np.array_equal(src.read(), np.arange(TOTAL, dtype=np.float32))
    pipe.close()


def test_arrays_belong_to_the_run_until_wait() -> None:
    pipe = nx.Pipeline(CHUNK, np.float32)
    src, dst = source(), nx.pinned_array(TOTAL, np.float32)
    run = pipe.map(src, into=dst, step=step)
    for moved in (src, dst):  # type: ignore[use-after-transfer]
        with pytest.raises(nx.UseAfterTransferError, match="pipeline#"):
            moved.read()
    with pytest.raises(nx.StreamClosedError, match="pipeline#"):
        pipe.close()
    src, dst = run.wait()
    assert dst.read()[1] == 3.0
    pipe.close()


def test_bad_input_is_refused_and_nothing_moves() -> None:
    pipe = nx.Pipeline(CHUNK, np.float32)
    src = source()
    with pytest.raises(ValueError, match="the same size as src"):
        pipe.map(src, into=nx.pinned_array(TOTAL + 1, np.float32), step=step)
    with pytest.raises(ValueError, match="dtype"):
        # (numpy's stubs let float64 pass for float32 statically: caught at run time)
        pipe.map(src, into=nx.pinned_array(TOTAL, np.float64), step=step)
    with pytest.raises(nx.PageableMemoryError):
        pipe.map(src, into=np.zeros(TOTAL, np.float32), step=step)  # type: ignore[arg-type]
    assert src.read()[5] == 5.0  # still owned
    pipe.close()
    with pytest.raises(nx.StreamClosedError, match="closed"):
        pipe.map(src, into=nx.pinned_array(TOTAL, np.float32), step=step)


def test_a_ragged_last_chunk_is_streamed_too() -> None:
    total = CHUNK * 3 + 5
    pipe = nx.Pipeline(CHUNK, np.float32, slots=2)
    src = nx.pinned_array(total, np.float32)
    with src.write() as a:
        a[:] = np.arange(total, dtype=np.float32)
    run = pipe.map(src, into=nx.pinned_array(total, np.float32), step=step)
    src, dst = run.wait()
    np.testing.assert_array_equal(dst.read(), 2.0 * np.arange(total, dtype=np.float32) + 1.0)
    pipe.close()
