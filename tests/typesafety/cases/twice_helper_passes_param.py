# The same retry loop with a retrain() that does not resubmit: harvest() completes
# trial.pending a second time (the helper passes the trial on to a method that starts
# nothing).
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@dataclass
class Trial:
    dev: Dev
    out: Host
    pending: nx.Transfer[Host] | None = None
    attempts: int = 0


class Sweep:
    def __init__(self) -> None:
        self.s = nx.stream()

    def submit(self, trial: Trial) -> None:
        trial.pending = self.s.download(trial.dev, into=trial.out)

    def note(self, trial: Trial) -> None:
        trial.attempts += 1

    def retrain(self, trial: Trial) -> None:
        self.note(trial)

    def harvest(self, trial: Trial) -> float:
        assert trial.pending is not None
        trial.out = trial.pending.wait()
        return float(trial.out.read().sum())

    def run(self, trial: Trial) -> float:
        self.submit(trial)
        loss = self.harvest(trial)
        self.retrain(trial)
        return self.harvest(trial)  # E: transfer-completed-twice


sweep = Sweep()
sweep.run(Trial(nx.device_array(8, np.float32), nx.pinned_array(8, np.float32)))
