# RUN: raises UseAfterTransferError
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

    def peek(self) -> float:
        return float(self.buf.read()[0])  # E: use-after-transfer


st = Stager()
st.start()
st.peek()
