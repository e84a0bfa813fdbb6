# draw() called between submit() and finish(): the frame is still moved.
# RUN: raises UseAfterTransferError via-call
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
    r.submit()
    r.draw()  # E: use-after-transfer "\"r.frame\" (read by \"Renderer.draw()\", called here) is used after it was moved into Stream.upload() at line 18 in Renderer.submit()" "\"r.frame = r.pending.wait()\""
    r.finish()


main()
