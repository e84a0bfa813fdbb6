# start() leaves self.buf moved with its transfer in self.up, and only use() takes it
# back: use() must do so before reading self.buf, and does (on the path where self.up
# is None, no transfer holds the buffer).
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Stager:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.buf = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)
        self.up: nx.Transfer[Host] | None = None

    def start(self) -> None:
        self.up = self.s.upload(self.buf, to=self.dev)

    def use(self) -> float:
        print(self.buf.shape)  # metadata: allowed while moved
        if self.up is not None:
            self.buf = self.up.wait()
            self.up = None
        return float(self.buf.read()[0])


st = Stager()
st.use()
st.start()
st.use()
