# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 66): harvest() no longer removes what it completed, so the retry waits those downloads a second time
# Planted bug: harvest() no longer removes what it completed, so the retry waits those downloads a second time
"""Circular cross-correlation of many channels against one reference, on a few streams.

Each channel goes up from its own pinned copy, is correlated on the device, and comes
back through a chained download into the same buffer. After each enqueue the older
downloads of that stream are harvested (the newest stays in flight to overlap the next
channel). At shutdown ``close()`` is tried first; a stream that refuses because
downloads are still unfinished has them completed, then the close is retried.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
Queue = list[tuple[int, nx.Transfer[Host]]]


@nx.kernel(reads=["x", "ref"], writes=["y"])
@cuda.jit
def circular_xcorr(x: Any, ref: Any, y: Any) -> None:
    n = x.size
    for lag in range(cuda.grid(1), n, cuda.gridsize(1)):
        acc = 0.0
        for i in range(n):
            acc += x[(i + lag) % n] * ref[i]
        y[lag] = acc


def consume(buf: nx.Consumed[Host]) -> tuple[int, float]:
    """Best lag and its correlation; the buffer is released."""
    y = buf.read()
    lag = int(np.argmax(y))
    value = float(y[lag])
    buf.free()
    return lag, value


def harvest(queue: Queue, results: dict[int, tuple[int, float]]) -> None:
    """Complete the finished downloads of one stream, all but the newest."""
    taken = 0
    for c, t in queue[:-1]:
        if not t.done():
            break
        results[c] = consume(t.wait())
        taken += 1


def shutdown(streams: list[nx.Stream[nx.Owned]], pending: list[Queue], results: dict[int, tuple[int, float]]) -> int:
    retried = 0
    for k, s in enumerate(streams):
        try:
            s.close()
        except nx.StreamClosedError:  # refused: downloads still unfinished on it
            retried += 1
            for c, t in pending[k]:
                results[c] = consume(t.wait())  # E: transfer-completed-twice
            pending[k].clear()
            s.close()
    return retried


def correlate_all(ref: NDArray[np.float32], channels: list[NDArray[np.float32]], n_streams: int) -> tuple[dict[int, tuple[int, float]], int]:
    n = ref.size
    streams = [nx.stream() for _ in range(n_streams)]
    d_ref = nx.device_array(n, np.float32)
    with nx.pinned(np.ascontiguousarray(ref)) as h_ref:
        h_ref = streams[0].upload(h_ref, to=d_ref).wait()
    d_x = [nx.device_array(n, np.float32) for _ in streams]
    d_y = [nx.device_array(n, np.float32) for _ in streams]
    pending: list[Queue] = [[] for _ in streams]
    results: dict[int, tuple[int, float]] = {}

    for c, x in enumerate(channels):
        k = c % n_streams
        s = streams[k]
        up = s.upload(nx.pinned_copy(x), to=d_x[k])
        circular_xcorr[max(1, n // 256), 64, s](d_x[k], d_ref, d_y[k])
        pending[k].append((c, s.download(d_y[k], into=up)))
        harvest(pending[k], results)

    retried = shutdown(streams, pending, results)
    return results, retried


def main() -> None:
    rng = np.random.default_rng(21)
    n = 128
    ref = rng.standard_normal(n).astype(np.float32)
    shifts = [3, 17, 40, 64, 99, 120]
    channels = [(np.roll(ref, sh) + 0.05 * rng.standard_normal(n)).astype(np.float32) for sh in shifts]
    results, retried = correlate_all(ref, channels, n_streams=3)
    assert sorted(results) == list(range(len(channels)))
    assert [results[c][0] for c in range(len(channels))] == shifts, results
    assert retried == 3, retried
    print(f"xcorr_retry: right, lags {shifts}, {retried} closes retried")


if __name__ == "__main__":
    main()
