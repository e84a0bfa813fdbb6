# submit() uploads the frame, finish() takes it back, draw() reads it; draw() is only
# called after finish(): clean at every call site (and in draw() itself).
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Renderer:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.frame = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def submit(self) -> None:
        self.pending = self.s.upload(self.frame, to=self.dev)

    def finish(self) -> None:
        if self.pending is not None:
            self.frame = self.pending.wait()
            self.pending = None

    def draw(self) -> None:
        with self.frame.write() as a:
            a[:] = 1.0


def main() -> None:
    r = Renderer()
    r.draw()
    for _ in range(3):
        r.submit()
        r.finish()
        r.draw()


main()
