# RUN: raises UseAfterTransferError via-call
# A method swaps two attributes (front and back buffers) while one is moved into an
# upload: the moved buffer is the other attribute after the swap.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Flip:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.front: Host = nx.pinned_array(4, np.float32)
        self.back: Host = nx.pinned_array(4, np.float32)
        self.dev = nx.device_array(4, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def send(self) -> None:
        self.pending = self.s.upload(self.back, to=self.dev)

    def flip(self) -> None:
        self.front, self.back = self.back, self.front

    def front_size(self) -> int:
        return int(self.front.read().size)


s = nx.stream()
f = Flip(s)
f.send()
f.flip()
print(f.front_size())  # E: use-after-transfer "f.front"
s.close()
