# RUN: raises UseAfterTransferError via-call
# A wait guarded by done() (true again once completed) or by a flag the method never
# sets is not idempotent: the second finish() completes the transfer again. (Waits
# guarded by "not self.pending.completed", or by a flag the method sets, are:
# ok_adv11_holder_completed, ok_adv11_poll_loop_describe.)
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


class Stage:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.host: Host = nx.pinned_array(N, np.float32)
        self.dev = nx.device_array(N, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        self.busy = False

    def start(self) -> None:
        self.pending = self.s.upload(self.host, to=self.dev)
        self.busy = True

    def finish(self) -> None:
        if self.pending is not None and self.pending.done():
            self.host = self.pending.wait()

    def settle(self) -> None:
        if self.busy and self.pending is not None:
            self.host = self.pending.wait()


def main() -> None:
    s = nx.stream()
    a = Stage(s)
    a.start()
    a.settle()
    a.settle()  # E: transfer-completed-twice
    b = Stage(s)
    b.start()
    b.s.synchronize()
    b.finish()
    b.finish()  # E: transfer-completed-twice
    s.close()


if __name__ == "__main__":
    main()
