# An attribute path (self.buf) moved and used in the same method.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


class Stager:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.buf = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)

    def run(self) -> None:
        up = self.s.upload(self.buf, to=self.dev)
        with self.buf.write() as a:  # E: use-after-transfer "self.buf" "self.buf = up.wait()"
            a[:] = 0
        self.buf = up.wait()


Stager().run()
