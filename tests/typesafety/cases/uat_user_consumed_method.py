# A method that takes ownership, called on an instance.
# RUN: raises UseAfterTransferError via-call
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Pipeline:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.inflight: list[nx.Transfer[Host]] = []

    def push(self, buf: nx.Consumed[Host], *, tag: str = "") -> None:
        self.inflight.append(self.s.upload(buf, to=self.dev))


p = Pipeline()
host = nx.pinned_array(8, np.float32)
p.push(host, tag="a")
p.push(host)  # E: use-after-transfer "Pipeline.push()"
