# A property that completes the pending download but drops the array wait() gives back
# (``self.pending.wait()`` with no take-back): the mirror stays moved, and its read in
# the same getter, or the caller's, is a use after transfer.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@dataclass
class Block:
    feat: Dev
    host: Host
    pending: nx.Transfer[Host] | None = None

    @property
    def features(self) -> NDArray[np.float32]:
        if self.pending is not None:
            self.pending.wait()
            self.pending = None
        return self.host.read()


def one(s: nx.Stream[nx.Owned], b: Block) -> float:
    b.pending = s.download(b.feat, into=b.host)
    return float(b.features.sum())  # E: use-after-transfer


s = nx.stream()
one(s, Block(nx.device_array(16, np.float32), nx.pinned_array(16, np.float32)))
