# A record-processing loop with early exits: empty records are skipped (`continue`),
# records with NaNs are counted and skipped, a negative sentinel ends the stream
# (`break`). Each kept record is uploaded, transformed, and downloaded.
# The bug: the NaN check was moved after the upload (to overlap it), so its `continue`
# leaves the upload unfinished and the next record writes the moved buffer.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def normalize(src: Any, dst: Any, count: int) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] / count if i < count else 0.0


def process(records: list[NDArray[np.float32]], width: int = 16) -> tuple[list[float], int]:
    s = nx.stream()
    host = nx.pinned_array(width, np.float32)
    out = nx.pinned_array(width, np.float32)
    d_in = nx.device_array(width, np.float32)
    d_out = nx.device_array(width, np.float32)
    results: list[float] = []
    skipped = 0
    for rec in records:
        if rec.size == 0:
            continue
        if rec[0] < 0:
            break  # sentinel: end of stream
        with host.write() as a:  # E: use-after-transfer "\"host\""
            a[: rec.size] = rec
            a[rec.size :] = 0.0
        up = s.upload(host, to=d_in)  # E: unfinished-transfer "\"up\"" "dropped" # E: unfinished-transfer "\"up\"" "unfinished on some path" # E: use-after-transfer "\"host\""
        if np.isnan(rec).any():
            skipped += 1
            continue
        s.launch(normalize, 1, 32, d_in, d_out, rec.size)
        host = up.wait()
        out = s.download(d_out, into=out).wait()
        results.append(float(out.read().sum()))
    s.close()  # E: unfinished-transfer "is closed"
    return results, skipped


def main() -> None:
    recs = [
        np.arange(4, dtype=np.float32),
        np.zeros(0, np.float32),
        np.array([1.0, np.nan], np.float32),
        np.ones(8, np.float32),
        np.array([-1.0], np.float32),
        np.ones(3, np.float32),
    ]
    results, skipped = process(recs)
    assert results == [1.5, 1.0] and skipped == 1, (results, skipped)


if __name__ == "__main__":
    main()
