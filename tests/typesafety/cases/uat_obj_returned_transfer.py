# send() returns the transfer of self.buf: the caller holds it, and the fix names it.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Sender:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.buf = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)

    def send(self) -> nx.Transfer[Host]:
        return self.s.upload(self.buf, to=self.dev)


def main() -> None:
    o = Sender()
    t = o.send()
    o.buf.read()  # E: use-after-transfer "\"o.buf\" is used after it was moved" "\"o.buf = t.wait()\""
    o.buf = t.wait()
    o.buf.read()


main()
