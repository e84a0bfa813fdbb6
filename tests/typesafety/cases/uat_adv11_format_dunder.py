# RUN: raises UseAfterTransferError
# Planted bug: the f-string runs Unit.__format__, which raises UnitError for an unknown
# format spec while `host` is moved into the upload; the handler reads `host`.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class UnitError(Exception):
    pass


class Unit:
    def __init__(self, name: str) -> None:
        self.name = name

    def __format__(self, spec: str) -> str:
        if spec not in ("", "short"):
            raise UnitError(f"unknown unit format {spec!r}")
        return self.name[:1] if spec == "short" else self.name


def main() -> None:
    s = nx.stream()
    unit = Unit("volts")
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    try:
        up = s.upload(host, to=dev)
        title = f"uploading ({unit:long})"
        host = up.wait()
        print(title)
    except UnitError:
        print("bad unit; sum", float(host.read().sum()))  # E: use-after-transfer
    s.close()


if __name__ == "__main__":
    main()
