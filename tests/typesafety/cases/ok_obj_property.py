# Properties of a class whose methods move an attribute: a property reading only the
# buffer's metadata is fine while the transfer runs, one reading its data is fine after
# the take-back, and a property with a setter is followed through its getter only.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Staging:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.host = nx.pinned_copy(np.ones(n, np.float32))
        self.pending: nx.Transfer[Host] | None = None
        self._scale = 1.0

    @property
    def size(self) -> int:
        return self.host.shape[0]

    @property
    def total(self) -> float:
        return float(self.host.read().sum()) * self._scale

    @property
    def scale(self) -> float:
        return self._scale

    @scale.setter
    def scale(self, value: float) -> None:
        self._scale = value

    def send(self) -> None:
        self.pending = self.s.upload(self.host, to=self.dev)

    def take_back(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None

    def report(self) -> float:
        self.take_back()
        return self.total


def main() -> float:
    st = Staging(8)
    first = st.total
    st.send()
    n = st.size
    st.scale = 2.0
    factor = st.scale
    st.take_back()
    again = st.total
    st.send()
    last = st.report()
    st.s.close()
    assert (first, n, factor, again, last) == (8.0, 8, 2.0, 16.0, 16.0)
    return last


main()
