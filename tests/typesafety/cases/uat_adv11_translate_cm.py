# RUN: raises UseAfterTransferError
# Planted bug: stage() turns numbaxfer's errors into the program's StageError; the
# second upload is refused (shape mismatch, a ValueError) while the first still holds
# `host`, and the StageError handler reads `host`.
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class StageError(Exception):
    pass


@contextmanager
def stage(name: str) -> Iterator[None]:
    try:
        yield
    except (ValueError, nx.OwnershipError) as e:
        raise StageError(f"stage {name} failed: {e}") from e


def main() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    other = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    small = nx.device_array(4, np.float32)
    with host.write() as a:
        a[:] = 1.0
    try:
        with stage("upload"):
            up = s.upload(host, to=dev)
            up2 = s.upload(other, to=small)
            other = up2.wait()
            host = up.wait()
    except StageError as e:
        print(e, float(host.read().sum()))  # E: use-after-transfer
    s.close()


if __name__ == "__main__":
    main()
