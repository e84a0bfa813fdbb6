# RUN: ok
# Methods that write ``self`` attributes, called inside a lend: of another attribute,
# after the lend block, only in a branch (``if self.dirty:``, the checker cannot tell
# whether it runs: silence), or after the method has stored a new buffer there. No report.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]


class Staging:
    def __init__(self, n: int) -> None:
        self.n = n
        self.stream = nx.stream()
        self.dev = nx.device_array(n, np.float64)
        self.host: Host = nx.pinned_array(n, np.float64)
        self.scratch: Host = nx.pinned_array(n, np.float64)
        self.dirty = False

    def fill_scratch(self, value: float) -> None:
        with self.scratch.write() as a:
            a[:] = value

    def refresh_if_dirty(self) -> None:
        if self.dirty:
            with self.host.write() as a:
                a[:] = 0.0
            self.dirty = False

    def replace_host(self) -> None:
        self.host.free()
        self.host = nx.pinned_array(self.n, np.float64)
        with self.host.write() as a:
            a[:] = 2.0

    def inject(self, value: float) -> None:
        with self.host.write() as a:
            a[0] = value
        self.host = self.stream.upload(self.host, to=self.dev).wait()

    def report(self) -> float:
        with self.host.lend() as view:
            total = float(view.read().sum())
            self.fill_scratch(total)  # another attribute
            self.refresh_if_dirty()  # self.dirty is False here
        self.inject(total)  # after the block
        return total

    def close(self) -> None:
        self.scratch.free()
        self.host.free()
        self.dev.free()
        self.stream.close()


def main() -> None:
    st = Staging(8)
    st.report()
    st.replace_host()
    st.report()
    st.close()


main()
