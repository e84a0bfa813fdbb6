# RUN: ok
# A resizable staging buffer behind a `host` property with a setter. While the old
# buffer is lent (to copy out of it), a larger one is installed through the setter and
# then filled: the write goes to the new buffer, not the lent one. Correct.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Staging:
    def __init__(self, n: int) -> None:
        self._host: Host = nx.pinned_array(n, np.float32)
        self._retired: list[Host] = []

    @property
    def host(self) -> Host:
        return self._host

    @host.setter
    def host(self, value: Host) -> None:
        self._retired.append(self._host)
        self._host = value

    def grow(self, n: int) -> None:
        with self.host.lend() as old:
            m = old.shape[0]
            self.host = nx.pinned_array(n, np.float32)  # the setter keeps the old one
            with self._host.write() as a:  # the new buffer
                a[:m] = old.read()
                a[m:] = 0.0

    def close(self) -> None:
        for h in self._retired:
            h.free()
        self._host.free()


def main() -> None:
    st = Staging(4)
    with st.host.write() as a:
        a[:] = 1.0
    st.grow(8)
    print(st.host.read())
    st.close()


main()
