# RUN: raises UseAfterTransferError
# Planted bug: np.asarray(reading) runs Reading.__array__, which raises SensorError for
# a stale reading while `host` is moved into the upload; the handler reads `host`.
from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class SensorError(Exception):
    pass


class Reading:
    def __init__(self, values: list[float], stale: bool) -> None:
        self.values = values
        self.stale = stale

    def __array__(self, dtype: Any = None, copy: Any = None) -> NDArray[np.float32]:
        if self.stale:
            raise SensorError("stale reading")
        return np.asarray(self.values, dtype=np.float32)


def main() -> None:
    s = nx.stream()
    host = nx.pinned_array(4, np.float32)
    dev = nx.device_array(4, np.float32)
    reading = Reading([1.0, 2.0, 3.0, 4.0], stale=True)
    try:
        up = s.upload(host, to=dev)
        values = np.asarray(reading)
        host = up.wait()
        print(values.sum())
    except SensorError:
        print("stale; previous", float(host.read().sum()))  # E: use-after-transfer
    s.close()


if __name__ == "__main__":
    main()
