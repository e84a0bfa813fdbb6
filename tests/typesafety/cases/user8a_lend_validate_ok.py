# RUN: ok
"""A parameter publisher: each update is validated through a read-only lend of the
staging buffer (so validators cannot scribble on it) and then uploaded to the device."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
LentView = nx.PinnedArray[nx.Lent, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
Validator = Callable[[LentView], str | None]


@cuda.jit
def ema(params: Any, shadow: Any, decay: float) -> None:
    i = cuda.grid(1)
    if i < params.size:
        shadow[i] = decay * shadow[i] + (1.0 - decay) * params[i]


def finite(v: LentView) -> str | None:
    return None if np.isfinite(v.read()).all() else "non-finite value"


def bounded(v: LentView) -> str | None:
    return "value out of range" if (np.abs(v.read()) >= 1e3).any() else None


class ParameterPublisher:
    def __init__(self, n: int, validators: list[Validator]) -> None:
        self.stream = nx.stream()
        self.staging: Host = nx.pinned_array(n, np.float32)
        self.params: Dev = nx.device_array(n, np.float32)
        self.shadow: Dev = nx.device_array(n, np.float32)
        self.stream.upload_staged(np.zeros(n, np.float32), to=self.shadow)
        self.validators = validators
        self.rejected: list[str] = []
        self.published = 0

    def publish(self, update: NDArray[np.float32]) -> bool:
        with self.staging.write() as a:
            a[:] = update
        with self.staging.lend() as view:
            problems = [p for p in (check(view) for check in self.validators) if p]
        if problems:
            self.rejected.extend(problems)
            return False
        up = self.stream.upload(self.staging, to=self.params)
        self.stream.launch(ema, 1, self.params.size, self.params, self.shadow, 0.5)
        self.staging = up.wait()
        self.published += 1
        return True

    def shadow_values(self) -> NDArray[np.float32]:
        self.staging = self.stream.download(self.shadow, into=self.staging).wait()
        return self.staging.read().copy()


def main() -> None:
    pub = ParameterPublisher(12, [finite, bounded])
    pub.publish(np.full(12, 2.0, np.float32))
    pub.publish(np.full(12, np.nan, np.float32))
    pub.publish(np.full(12, 4.0, np.float32))
    shadow = pub.shadow_values()
    pub.stream.close()
    assert pub.published == 2 and pub.rejected == ["non-finite value"], pub.rejected
    assert float(shadow[0]) == 2.5, shadow[0]
    print("lend validate: published", pub.published, "rejected", pub.rejected)


if __name__ == "__main__":
    main()
