# RUN: ok
# The caller spins on poll() until the upload came back; the stage keeps the completed
# transfer as a record, and describe() reads the buffer whenever a record is there.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


class Stage:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.host: Host = nx.pinned_array(N, np.float32)
        self.dev: Dev = nx.device_array(N, np.float32)
        self.last: nx.Transfer[Host] | None = None
        self.back = True

    def start(self, v: float) -> None:
        with self.host.write() as a:
            a[:] = v
        self.last = self.s.upload(self.host, to=self.dev)
        self.back = False

    def poll(self) -> bool:
        if self.last is not None and not self.back and self.last.done():
            self.host = self.last.wait()
            self.back = True
        return self.back

    def describe(self) -> str:
        if self.last is not None:
            return f"{self.last.label}: {float(self.host.read().sum())}"
        return "nothing sent"


def main() -> None:
    s = nx.stream()
    st = Stage(s)
    print(st.describe())
    st.start(2.0)
    while not st.poll():
        pass
    print(st.describe())
    s.close()


if __name__ == "__main__":
    main()
