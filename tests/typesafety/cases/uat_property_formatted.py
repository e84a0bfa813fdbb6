# RUN: raises UseAfterTransferError via-call
# A property read as an argument of print() runs its getter there: here it reads the
# buffer a method moved into an upload. So does one read as the receiver of a method
# call (st.values.max()).
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Stage:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.host: Host = nx.pinned_copy(np.ones(4, np.float32))
        self.dev = nx.device_array(4, np.float32)
        self.up: nx.Transfer[Host] | None = None

    def send(self) -> None:
        self.up = self.s.upload(self.host, to=self.dev)

    def finish(self) -> None:
        if self.up is not None:
            self.host = self.up.wait()
            self.up = None

    @property
    def total(self) -> float:
        return float(self.host.read().sum())

    @property
    def values(self) -> NDArray[np.float32]:
        return self.host.read()


s = nx.stream()
st = Stage(s)
st.send()
print("total:", st.total)  # E: use-after-transfer "st.host" "property"
peak = float(st.values.max())  # E: use-after-transfer "(read by the property \"Stage.values\", read here)"
st.finish()
s.close()
