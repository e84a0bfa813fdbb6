# start() leaves st.buf moved (its transfer is in st.up): reading st.buf directly
# before finish() (or st.up.wait()) is a use after transfer.
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

    def finish(self) -> None:
        assert self.up is not None
        self.buf = self.up.wait()
        self.up = None


st = Stager()
st.start()
print(st.buf.read()[0])  # E: use-after-transfer "\"st.buf\" is used after it was moved into Stream.upload() at line 19 in Stager.start()" "\"st.buf = st.up.wait()\""
st.finish()
