# RUN: ok
"""A non-blocking job driven by a state attribute: poll() advances the job one state when
the copy it is waiting for has finished, so a scheduler can interleave many jobs."""
from __future__ import annotations

import enum
import time
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def smooth(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if 0 < i < src.size - 1:
        dst[i] = (src[i - 1] + src[i] + src[i + 1]) / 3.0
    elif i < src.size:
        dst[i] = src[i]


class State(enum.Enum):
    IDLE = "idle"
    UPLOADING = "uploading"
    DOWNLOADING = "downloading"
    READY = "ready"


class SmoothJob:
    def __init__(self, name: str, n: int, s: nx.Stream[nx.Owned]) -> None:
        self.name = name
        self.stream = s
        self.state = State.IDLE
        self.host: Host = nx.pinned_array(n, np.float32)
        self.d_in: Dev = nx.device_array(n, np.float32)
        self.d_out: Dev = nx.device_array(n, np.float32)
        self.transfer: nx.Transfer[Host] | None = None
        self.result = 0.0

    def poll(self) -> bool:
        if self.state is State.IDLE:
            with self.host.write() as a:
                a[:] = np.linspace(0.0, 1.0, a.size, dtype=np.float32)
            self.transfer = self.stream.upload(self.host, to=self.d_in)
            self.state = State.UPLOADING
        elif self.state is State.UPLOADING:
            assert self.transfer is not None
            if self.transfer.done():
                self.host = self.transfer.wait()
                n = self.d_in.size
                self.stream.launch(smooth, 1, n, self.d_in, self.d_out)
                self.transfer = self.stream.download(self.d_out, into=self.host)
                self.state = State.DOWNLOADING
        elif self.state is State.DOWNLOADING:
            assert self.transfer is not None
            if self.transfer.done():
                self.host = self.transfer.wait()
                self.transfer = None
                self.result = float(self.host.read().sum())
                self.state = State.READY
        return self.state is State.READY


def main() -> None:
    s = nx.stream()
    jobs = [SmoothJob(f"j{i}", 16 * (i + 1), s) for i in range(3)]
    rounds = 0
    deadline = time.monotonic() + 30.0  # (a GPU may take many polls: bound the time)
    while not all(job.poll() for job in jobs):
        rounds += 1
        assert time.monotonic() < deadline, "scheduler stuck"
    s.close()
    for job in jobs:
        assert job.result > 0.0, job.name
    print("state machine:", [(j.name, round(j.result, 3)) for j in jobs], "rounds", rounds)


if __name__ == "__main__":
    main()
