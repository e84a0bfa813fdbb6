# self.buf taken back in the same method.
# RUN: ok
import numpy as np

import numbaxfer as nx


class Stager:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.buf = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)

    def run(self) -> None:
        up = self.s.upload(self.buf, to=self.dev)
        self.buf = up.wait()
        with self.buf.write() as a:
            a[:] = 0


Stager().run()
