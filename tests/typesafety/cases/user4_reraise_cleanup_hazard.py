# Error handling that cleans up and re-raises: a batch is uploaded while it is
# validated on the host; on a bad batch the handler takes the buffer back, frees it and
# re-raises, and the caller logs the failure and goes on with the next batch. The bug:
# the handler waits for the upload but drops what wait() returns, then frees the old
# (moved) handle.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class BadBatch(ValueError):
    pass


def validate(batch: NDArray[Any]) -> None:
    if not np.isfinite(batch).all():
        raise BadBatch(f"batch has {int((~np.isfinite(batch)).sum())} non-finite values")


def send_batch(s: nx.Stream[nx.Lent], batch: NDArray[np.float32], dev: nx.DeviceArray[nx.Owned, np.float32]) -> Host:
    host = nx.pinned_copy(batch)
    up = s.upload(host, to=dev)
    try:
        validate(batch)
    except BadBatch:
        up.wait()
        host.free()  # E: use-after-transfer "host" "moved into Stream.upload()"
        raise
    host = up.wait()
    return host


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    batches = [np.ones(8, np.float32), np.full(8, np.nan, np.float32), np.zeros(8, np.float32)]
    sent, failed = 0, 0
    for batch in batches:
        try:
            host = send_batch(s, batch, dev)
        except BadBatch as exc:
            failed += 1
            print("skipped:", exc)
            continue
        sent += 1
        host.free()
    assert (sent, failed) == (2, 1)
    s.close()


main()
