# A constructor that starts the upload through a method, then reads the buffer: the
# read in __init__ is a use (the method's summary moves self.buf), though nothing is
# moved at the constructor's entry.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


class Prefetcher:
    def __init__(self, s: nx.Stream[nx.Owned], dev: Dev) -> None:
        self.s = s
        self.dev = dev
        self.buf = nx.pinned_array(8, np.float32)
        self.pending: nx.Transfer[nx.PinnedArray[nx.Owned, np.float32]] | None = None
        self.start()
        print(self.buf.read()[0])  # E: use-after-transfer "self.buf" "start()"

    def start(self) -> None:
        self.pending = self.s.upload(self.buf, to=self.dev)

    def finish(self) -> None:
        if self.pending is not None:
            self.buf = self.pending.wait()
            self.pending = None


stream = nx.stream()
p = Prefetcher(stream, nx.device_array(8, np.float32))
p.finish()
