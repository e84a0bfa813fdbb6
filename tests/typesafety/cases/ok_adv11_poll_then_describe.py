# RUN: ok
# Stages polled with done(): finished early when ready, the rest completed after; each
# keeps its transfer as a record and describe() reads the buffer when there is one.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


class Stage:
    def __init__(self, s: nx.Stream[nx.Owned], name: str) -> None:
        self.s = s
        self.name = name
        self.host: Host = nx.pinned_array(N, np.float32)
        self.dev: Dev = nx.device_array(N, np.float32)
        self.last: nx.Transfer[Host] | None = None

    def start(self, v: float) -> None:
        with self.host.write() as a:
            a[:] = v
        self.last = self.s.upload(self.host, to=self.dev)

    def finish(self) -> None:
        if self.last is not None and not self.last.completed:
            self.host = self.last.wait()

    def describe(self) -> str:
        if self.last is not None:
            return f"{self.name}: {self.last.label} sent {float(self.host.read()[0])}"
        return f"{self.name}: idle"


def main() -> None:
    s = nx.stream()
    st = Stage(s, "solo")
    st.start(1.0)
    if st.last is not None and st.last.done():
        st.finish()
    st.finish()
    print(st.describe())
    quick = Stage(s, "quick")
    quick.start(2.0)
    early = quick.last is not None and quick.last.done()
    if early:
        quick.finish()
    else:
        quick.finish()
    print(quick.describe())
    s.close()


if __name__ == "__main__":
    main()
