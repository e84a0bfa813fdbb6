# RUN: ok
# A method chains a download onto its upload and keeps the chained transfer in an
# attribute; another method takes the buffer back through it when it is set.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Job:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.buf: Host = nx.pinned_copy(np.arange(4, dtype=np.float32))
        self.dev = nx.device_array(4, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def start(self) -> None:
        up = self.s.upload(self.buf, to=self.dev)
        self.pending = self.s.download(self.dev, into=up)

    def result(self) -> float:
        if self.pending is not None:
            self.buf = self.pending.wait()
            self.pending = None
        return float(self.buf.read().sum())


s = nx.stream()
job = Job(s)
job.start()
print(job.result(), float(job.buf.read().max()))
s.close()
