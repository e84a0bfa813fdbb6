# A retry loop: harvest() completes trial.pending, retrain() calls submit(), which starts
# a new download into trial.pending; harvest() then completes the new one. What a method
# does to its parameter's fields is followed through the methods it passes it to.
# RUN: ok
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

    def retrain(self, trial: Trial) -> None:
        trial.attempts += 1
        self.submit(trial)

    def harvest(self, trial: Trial) -> float:
        assert trial.pending is not None
        trial.out = trial.pending.wait()
        return float(trial.out.read().sum())

    def run(self, trial: Trial) -> float:
        self.submit(trial)
        loss = self.harvest(trial)
        while loss < 0 and trial.attempts < 2:
            self.retrain(trial)
            loss = self.harvest(trial)
        return loss


def restart(sweep: Sweep, trial: Trial) -> None:
    sweep.retrain(trial)


def main() -> None:
    sweep = Sweep()
    t = Trial(nx.device_array(8, np.float32), nx.pinned_array(8, np.float32))
    sweep.run(t)
    restart(sweep, t)
    sweep.harvest(t)
    sweep.s.close()


main()
