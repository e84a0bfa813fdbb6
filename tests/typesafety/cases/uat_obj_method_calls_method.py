# A method that calls another method of self: submit() moves the frame and then calls
# log(), which reads it (reported at the call inside submit()); show() reads it through
# log(), so a call of show() after submit() is reported too.
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

    def log(self) -> None:
        print(self.frame.read()[0])

    def show(self) -> None:
        self.log()

    def submit(self) -> None:
        self.pending = self.s.upload(self.frame, to=self.dev)
        self.log()  # E: use-after-transfer "\"self.frame\" (read by \"Renderer.log()\", called here) is used" "line 26"

    def finish(self) -> None:
        if self.pending is not None:
            self.frame = self.pending.wait()
            self.pending = None


def main() -> None:
    r = Renderer()
    r.show()
    r.finish()
    r.show()
    r.submit()
    r.show()  # E: use-after-transfer "\"r.frame\" (read by \"Renderer.show()\", called here)" "in Renderer.submit()"


main()
