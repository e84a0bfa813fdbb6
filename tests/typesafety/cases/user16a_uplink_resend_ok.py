# RUN: ok
"""A telemetry uplink: named sensor blocks are pinned and uploaded into per-key device
slots; `confirm()` waits for each upload, reads the slot back and re-sends any block
whose device copy does not match (a flaky link is simulated by a kernel that corrupts
one block on its first delivery).

Jobs are `NamedTuple`s; the pinned source of every key is kept in `self.sent` so that a
block can be re-sent without the caller's data.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def corrupt(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size and i % 16 == 0:
        a[i] = -1.0


class Job(NamedTuple):
    key: str
    up: nx.Transfer[Host]
    attempt: int


class Uplink:
    def __init__(self, n: int, keys: list[str], flaky: str) -> None:
        self.stream = nx.stream()
        self.slots: dict[str, Dev] = {k: nx.device_array(n, np.float32) for k in keys}
        self.sent: dict[str, Host] = {}
        self.expected: dict[str, NDArray[np.float32]] = {}
        self.jobs: list[Job] = []
        self.readback = nx.pinned_array(n, np.float32)
        self.flaky = flaky
        self.resends = 0

    def _deliver(self, key: str, host: Host, attempt: int) -> None:
        up = self.stream.upload(host, to=self.slots[key])
        if key == self.flaky and attempt == 0:
            self.stream.launch(corrupt, 2, 64, self.slots[key])
        self.jobs.append(Job(key, up, attempt))

    def send(self, key: str, values: NDArray[np.float32]) -> None:
        host = nx.pinned_copy(values)
        self.sent[key] = host
        self.expected[key] = values.copy()
        self._deliver(key, host, 0)

    def resend(self, key: str, attempt: int) -> None:
        self.resends += 1
        up = self.stream.upload(self.sent[key], to=self.slots[key])
        self.jobs.append(Job(key, up, attempt))

    def _matches(self, key: str) -> bool:
        self.readback = self.stream.download(self.slots[key], into=self.readback).wait()
        return bool(np.array_equal(self.readback.read(), self.expected[key]))

    def confirm(self) -> None:
        while self.jobs:
            job = self.jobs.pop(0)
            self.sent[job.key] = job.up.wait()
            if not self._matches(job.key) and job.attempt < 3:
                self.resend(job.key, job.attempt + 1)

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    n = 512
    keys = ["imu", "gps", "baro"]
    rng = np.random.default_rng(11)
    data = {k: rng.standard_normal(n).astype(np.float32) for k in keys}
    link = Uplink(n, keys, flaky="gps")
    for k in keys:
        link.send(k, data[k])
    link.confirm()
    for k in keys:
        host = link.stream.download(link.slots[k], into=link.readback).wait()
        assert np.array_equal(host.read(), data[k]), k
        link.readback = host
    link.close()
    assert link.resends == 1
    print("uplink_resend: ok", {k: round(float(v.sum()), 3) for k, v in data.items()})


if __name__ == "__main__":
    main()
