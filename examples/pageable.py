"""Pageable numpy arrays and ``stream=``: what numbaxfer does, and the two fixes.

The raw numba idiom::

    a = np.arange(n, dtype=np.float32)            # ordinary, pageable numpy memory
    d = cuda.to_device(a, stream=s)               # looks asynchronous...
    affine[grid, block, s](d)
    d.copy_to_host(a, stream=s)                   # ...looks asynchronous too

The hazard, a quiet one: the DMA engine reads and writes page-locked memory only, so
for pageable memory the CUDA driver stages the copy through pinned buffers of its own,
on the CPU. Its documentation ("API synchronization behavior") says that an ``Async``
copy between device and pageable memory "might be synchronous with respect to host"
and that the driver "may synchronize with the stream and stage the copy". In practice
the upload returns once ``a`` has been copied into the staging buffer (the call blocks
for that host copy) and the download returns once it has completed, after everything
queued before it on ``s``. ``stream=`` still orders the copies, but the overlap the
code was written for silently does not happen, and the staging costs bandwidth
(pageable copies ran at 6-11 GB/s on an H200, pinned ones at ~55 GB/s). The numbers
are right; the asynchrony is an illusion nothing reports.

numbaxfer: an asynchronous copy takes page-locked memory or nothing (design rule 6).
``s.upload(a, ...)`` and ``s.download(..., into=a)`` with a numpy array are refused
before anything is enqueued, statically (mypy: ``[arg-type]``, the parameters are
``PinnedArray``) and at run time (``nx.PageableMemoryError``, a ``TypeError``, whose
message says how to pin). No silent staging copy, no hidden synchronization: you pick
the cost explicitly.

* Fix 1, ``nx.pinned_copy(a)``: one host copy into new page-locked memory; the copy
  is then truly asynchronous and the pinned buffer can be reused (allocate once).
* Fix 2, ``with nx.pinned(a) as h:``: page-lock ``a`` in place for a block (no copy;
  pinning costs a system call per block) and use ``h`` inside it.
* For small constant uploads (``cuda.to_device(a, stream=s)`` of coefficients, a
  lookup table): ``s.upload_staged(a, to=dev)`` copies ``a`` into a pooled staging
  buffer before it returns (one host copy, named as such), then uploads
  asynchronously; ``a`` may be reused at once. Downloads have no staged form: their
  destination is pinned memory.

    python examples/pageable.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def affine(a: Any) -> None:
    """``a = 2 a + 1`` in place (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 2.0 * a[i] + 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def upload_refusal(
    source: Any, dev: nx.DeviceArray[nx.Owned, np.float32], s: nx.Stream[nx.Lent]
) -> str:
    """What numbaxfer says when pageable memory is the source of an upload.

    mypy refuses the call for a numpy array ([arg-type]: it is not an ``nx.PinnedArray``);
    ``source: Any`` hides the type to show the run-time check, for code mypy never saw.
    """
    try:
        up = s.upload(source, to=dev)
    except nx.PageableMemoryError as e:
        return str(e)
    up.wait()
    raise AssertionError("numbaxfer accepted pageable memory for an upload")


def download_refusal(
    dev: nx.DeviceArray[nx.Owned, np.float32], destination: Any, s: nx.Stream[nx.Lent]
) -> str:
    """The same for pageable memory as the destination of a download."""
    try:
        down = s.download(dev, into=destination)
    except nx.PageableMemoryError as e:
        return str(e)
    down.wait()
    raise AssertionError("numbaxfer accepted pageable memory for a download")


def fix_with_pinned_copy(
    a: NDArray[np.float32], dev: nx.DeviceArray[nx.Owned, np.float32], s: nx.Stream[nx.Lent]
) -> NDArray[np.float32]:
    """Fix 1: one explicit host copy into page-locked memory, then async both ways."""
    host = nx.pinned_copy(a)
    up = s.upload(host, to=dev)
    blocks, threads = grid_for(a.size)
    s.launch(affine, blocks, threads, dev)
    host = up.wait()
    host = s.download(dev, into=host).wait()
    result: NDArray[np.float32] = host.read().copy()
    return result


def fix_with_pinned_scope(
    a: NDArray[np.float32], dev: nx.DeviceArray[nx.Owned, np.float32], s: nx.Stream[nx.Lent]
) -> None:
    """Fix 2: page-lock ``a`` in place for the block; the result lands in ``a``."""
    blocks, threads = grid_for(a.size)
    with nx.pinned(a) as h:
        up = s.upload(h, to=dev)
        s.launch(affine, blocks, threads, dev)
        h = up.wait()
        h = s.download(dev, into=h).wait()


def small_upload_staged(
    a: NDArray[np.float32], dev: nx.DeviceArray[nx.Owned, np.float32], s: nx.Stream[nx.Lent]
) -> NDArray[np.float32]:
    """Small constant data: staged upload (one host copy), download into pinned memory."""
    s.upload_staged(a, to=dev)  # a is copied now: it may be reused at once
    blocks, threads = grid_for(a.size)
    s.launch(affine, blocks, threads, dev)
    out = s.download(dev, into=nx.pinned_array(a.shape, a.dtype)).wait()
    result: NDArray[np.float32] = out.read().copy()
    return result


def main(n: int = 256) -> list[str]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    a = np.arange(n, dtype=np.float32)
    expected = 2.0 * a + 1.0

    messages = [upload_refusal(a, dev, s), download_refusal(dev, a, s)]
    assert len(messages) == 2 and all("nx.pinned_copy" in m for m in messages), messages
    assert np.array_equal(a, np.arange(n, dtype=np.float32)), "a refused copy touched `a`"

    assert np.array_equal(fix_with_pinned_copy(a, dev, s), expected), "pinned_copy: wrong"
    assert np.array_equal(small_upload_staged(a, dev, s), expected), "upload_staged: wrong"
    fix_with_pinned_scope(a, dev, s)
    assert np.array_equal(a, expected), "nx.pinned: wrong"
    s.close()
    return messages


if __name__ == "__main__":
    result = main()
    print(
        f"pageable: right; {len(result)} async copies of pageable memory refused "
        "(nx.PageableMemoryError), then pinned_copy, nx.pinned and upload_staged right"
    )
