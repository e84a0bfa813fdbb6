# RUN: raises UseAfterTransferError
# A method that reads self.host and only then takes it back from the transfer its
# holder had at entry (self.host = self.transfer.wait()): its own take-back shows the
# buffer may be moved at the read, whatever state attribute guards the branch.
from __future__ import annotations

import enum

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class State(enum.Enum):
    IDLE = enum.auto()
    BUSY = enum.auto()
    READY = enum.auto()


class Job:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.host = nx.pinned_array(8, np.float32)
        self.transfer: nx.Transfer[Host] | None = None
        self.state = State.IDLE
        self.result = 0.0

    def poll(self) -> bool:
        if self.state is State.IDLE:
            with self.host.write() as a:  # never moved in this state: no report
                a[:] = 1.0
            self.transfer = self.s.upload(self.host, to=self.dev)
            self.state = State.BUSY
        elif self.state is State.BUSY and self.transfer is not None:
            if self.transfer.done():
                self.result = float(self.host.read().sum())  # E: use-after-transfer "\"self.host\" may be used after it was moved into Stream.upload() at line 35 in Job.poll()" "self.host = self.transfer.wait()"
                self.host = self.transfer.wait()
                self.transfer = None
                self.state = State.READY
        return self.state is State.READY


if __name__ == "__main__":
    job = Job()
    while not job.poll():
        pass
