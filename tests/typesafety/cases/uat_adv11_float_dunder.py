# RUN: raises UseAfterTransferError
# Planted bug: float(gain) runs Gain.__float__, which raises CalibrationError for an
# uncalibrated gain while `host` is moved into the upload; the handler reads `host`.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class CalibrationError(Exception):
    pass


class Gain:
    def __init__(self, value: float | None) -> None:
        self.value = value

    def __float__(self) -> float:
        if self.value is None:
            raise CalibrationError("gain not calibrated")
        return self.value


def main() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    gain = Gain(None)
    with host.write() as a:
        a[:] = 1.0
    try:
        up = s.upload(host, to=dev)
        factor = float(gain)
        host = up.wait()
        print("factor", factor)
    except CalibrationError:
        print("uncalibrated; raw sum", float(host.read().sum()))  # E: use-after-transfer
    s.close()


if __name__ == "__main__":
    main()
