# The transfer is stored in an attribute by start() and completed by finish(), which
# restores the buffer; reads of the buffer come after finish().
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

    def finish(self) -> None:
        assert self.up is not None
        self.buf = self.up.wait()
        self.up = None


st = Stager()
st.start()
st.finish()
print(st.buf.read()[0])
st.start()
assert st.up is not None
st.buf = st.up.wait()
print(st.buf.read()[0])
