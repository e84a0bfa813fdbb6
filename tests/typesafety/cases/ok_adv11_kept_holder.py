# RUN: ok
# A stage keeps its last transfer as a record after finish() took the buffer back;
# describe() reads the buffer when the record is there (it always was completed).
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
        assert self.last is not None
        self.host = self.last.wait()

    def describe(self) -> str:
        if self.last is None:
            return f"{self.name}: never started"
        return f"{self.name}: {self.last.label} sent {float(self.host.read()[0])}"


def main() -> None:
    s = nx.stream()
    stages = [Stage(s, f"st{k}") for k in range(3)]
    for k, st in enumerate(stages):
        st.start(float(k))
    for st in stages:
        st.finish()
    for st in stages:
        print(st.describe())
    one = Stage(s, "one")
    print(one.describe())
    one.start(5.0)
    one.finish()
    print(one.describe())
    s.close()


if __name__ == "__main__":
    main()
