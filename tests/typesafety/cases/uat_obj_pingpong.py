# Ping-pong gone wrong: step_b() writes self.a before taking back its transfer. The
# class shows its protocol (self.ta holds the transfer of self.a, and only step_b()
# takes it back), so step_b() itself is reported.
# RUN: raises UseAfterTransferError via-call
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class PingPong:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.a = nx.pinned_array(8, np.float32)
        self.b = nx.pinned_array(8, np.float32)
        self.ta: nx.Transfer[Host] | None = None

    def step_a(self) -> None:
        self.ta = self.s.upload(self.a, to=self.dev)

    def step_b(self) -> None:
        with self.a.write() as w:  # E: use-after-transfer "\"self.a\" may be used after it was moved into Stream.upload() at line 21 in PingPong.step_a()" "\"self.a = self.ta.wait()\""
            w[:] = 1.0
        if self.ta is not None:
            self.a = self.ta.wait()
            self.ta = None


pp = PingPong()
pp.step_a()
pp.step_b()
