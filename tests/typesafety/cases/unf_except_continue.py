# RUN: warns ResourceWarning anywhere
# A handler that ends with "continue" skips the item and goes on as normal: a download
# still in flight when validate() raised is dropped there (the next iteration rebinds
# it). A handler that completes it first, or one that re-raises, drops nothing.
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def validate(k: int) -> None:
    if k == 1:
        raise ValueError(f"item {k} rejected")


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    s.upload_staged(np.zeros(8, dtype=np.float32), to=dev).wait()
    kept: list[float] = []
    for k in range(3):
        down = s.download(dev, into=nx.pinned_array(8, np.float32))  # E: unfinished-transfer "dropped here" # E: unfinished-transfer "left unfinished"
        try:
            validate(k)
        except ValueError:
            continue
        kept.append(float(down.wait().read().sum()))
    print(kept, completed_first(s, dev))


def completed_first(
    s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32]
) -> list[float]:
    kept: list[float] = []
    for k in range(3):
        down = s.download(dev, into=nx.pinned_array(8, np.float32))
        try:
            validate(k)
        except ValueError:
            down.wait().free()
            continue
        kept.append(float(down.wait().read().sum()))
    return kept


if __name__ == "__main__":
    main()
