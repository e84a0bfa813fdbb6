# RUN: raises UseAfterTransferError
# Planted bug: next(batches) runs the program's generator, which raises BatchError for
# an empty batch while `host` is moved into the upload; the handler reads `host`.
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class BatchError(Exception):
    pass


def batches(sizes: list[int]) -> Iterator[int]:
    for n in sizes:
        if n == 0:
            raise BatchError("empty batch")
        yield n


def main() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    gen = batches([0, 4])
    with host.write() as a:
        a[:] = 2.0
    try:
        up = s.upload(host, to=dev)
        n = next(gen)
        host = up.wait()
        print("batch of", n)
    except BatchError:
        print("skipped:", float(host.read().sum()))  # E: use-after-transfer
    s.close()


if __name__ == "__main__":
    main()
