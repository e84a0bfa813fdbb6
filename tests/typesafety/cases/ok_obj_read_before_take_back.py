# RUN: ok
# Reads of self.host that come before a take-back only on other paths, or before a
# take-back of a transfer started after the read: no report.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Job:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.host = nx.pinned_array(8, np.float32)
        self.transfer: nx.Transfer[Host] | None = None
        self.result = 0.0

    def poll(self) -> bool:
        if self.transfer is None:
            with self.host.write() as a:  # the take-back below is on the other path
                a[:] = 1.0
            self.transfer = self.s.upload(self.host, to=self.dev)
            return False
        if not self.transfer.done():
            return False
        self.host = self.transfer.wait()
        self.transfer = None
        self.result = float(self.host.read().sum())
        return True

    def roundtrip(self) -> float:
        if self.transfer is not None:
            self.host = self.transfer.wait()
        total = float(self.host.read().sum())  # read, then a transfer of its own
        self.transfer = self.s.upload(self.host, to=self.dev)
        self.host = self.transfer.wait()
        self.transfer = None
        return total


if __name__ == "__main__":
    job = Job()
    while not job.poll():
        pass
    print(job.result, job.roundtrip())
    job.s.close()
