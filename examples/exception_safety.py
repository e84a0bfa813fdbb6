"""An exception between a copy and its wait: ``auto_synchronize`` and its replacement.

The raw numba idiom::

    try:
        with s.auto_synchronize():               # "synchronize when the block ends"
            dev.copy_to_host(out, stream=s)      # async: lands in `out` later
            validate(next_batch)                 # raises ValueError
    except ValueError:
        log(out.sum())                           # BUG: the copy may still be writing `out`
        out[:] = 0                               # BUG: ...or lands on top of this later

The hazard: numba's ``Stream.auto_synchronize`` is a generator context manager,
``yield self; self.synchronize()``: when the block raises, the ``synchronize()`` after
the ``yield`` never runs. The handler believes the stream was synchronized and reads,
or reuses, a buffer a copy is still writing.

numbaxfer: there is no "synchronize at exit" to skip. The download owns ``out`` until
``out = down.wait()``; in the handler ``out`` is moved, so reading it raises
``nx.UseAfterTransferError`` (mypy with the plugin reports the line), and the fix is to
complete the transfer on every path, here in ``finally``. If the exception escapes
without the wait, the transfer is dropped: a ``ResourceWarning`` says so, and the
buffer stays alive (unreachable, so nobody can read it early or reuse it) until the
copy has really finished.

    python examples/exception_safety.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def affine(a: Any) -> None:
    """``a = 2 a + 1`` in place (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 2.0 * a[i] + 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def validate(batch: NDArray[np.float32]) -> None:
    """Host work done while the download runs; it may raise."""
    if not np.isfinite(batch).all():
        raise ValueError("next batch has non-finite values")


def fetch_and_validate(
    dev: nx.DeviceArray[nx.Owned, np.float32],
    out: Host,
    next_batch: NDArray[np.float32],
    s: nx.Stream[nx.Lent],
) -> tuple[Host, str | None]:
    """Download ``dev`` into ``out`` and validate ``next_batch`` meanwhile.

    Returns ``out`` (always taken back from the transfer, on every path) and the
    validation error, if any.
    """
    down = s.download(dev, into=out)  # out moves into the download
    error: str | None = None
    try:
        validate(next_batch)  # overlaps the copy; may raise
    except ValueError as e:
        error = str(e)  # out is not ours here: out.read() would raise
    finally:
        out = down.wait()  # every path takes the buffer back
    return out, error


def main(n: int = 256) -> tuple[float, str | None]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    blocks, threads = grid_for(n)
    host = s.upload(nx.pinned_copy(np.arange(n, dtype=np.float32)), to=dev).wait()
    s.launch(affine, blocks, threads, dev)

    bad_batch = np.full(n, np.nan, dtype=np.float32)
    out, error = fetch_and_validate(dev, host, bad_batch, s)
    assert error is not None, "the validation should have failed"
    total = float(out.read().sum(dtype=np.float64))  # the download has landed
    s.close()

    expected = float((2.0 * np.arange(n, dtype=np.float64) + 1.0).sum())
    assert total == expected, f"exception safety: {total} != {expected}"
    return total, error


if __name__ == "__main__":
    result = main()
    print(f"exception_safety: right, sum {result[0]} read after the failed validation")
