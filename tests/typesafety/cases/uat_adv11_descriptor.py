# RUN: raises UseAfterTransferError
# Planted bug: cfg.gain = ... runs the Positive descriptor's __set__, which raises
# ConfigError for a negative value while `host` is moved; the handler reads `host`.
from __future__ import annotations

from typing import Any

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class ConfigError(Exception):
    pass


class Positive:
    def __set_name__(self, owner: type, name: str) -> None:
        self.name = "_" + name

    def __get__(self, obj: Any, objtype: Any = None) -> float:
        return float(getattr(obj, self.name, 1.0))

    def __set__(self, obj: Any, value: float) -> None:
        if value <= 0:
            raise ConfigError(f"{self.name[1:]} must be positive, got {value}")
        setattr(obj, self.name, value)


class Config:
    gain = Positive()


def main() -> None:
    s = nx.stream()
    cfg = Config()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    with host.write() as a:
        a[:] = 1.0
    try:
        up = s.upload(host, to=dev)
        cfg.gain = -2.0
        host = up.wait()
    except ConfigError as e:
        print(e, float(host.read().sum()))  # E: use-after-transfer
    s.close()


if __name__ == "__main__":
    main()
