# More reads of an attribute of container elements moved in a loop: a container held in
# an attribute (`self.jobs`), a comprehension that moves, and a read after calls that
# touch no element (numbaxfer's, builtins', a list's own methods).
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@dataclass
class Job:
    host: Host
    dev: nx.DeviceArray[nx.Owned, np.float32]
    pending: nx.Transfer[Host] | None = None


def start(job: Job, s: nx.Stream[nx.Owned]) -> bool:
    job.pending = s.upload(job.host, to=job.dev)
    return True


def make() -> Job:
    return Job(nx.pinned_copy(np.zeros(4, np.float32)), nx.device_array(4, np.float32))


class Batch:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.jobs = [make(), make()]

    def run(self) -> float:
        for job in self.jobs:
            start(job, self.s)
        return float(self.jobs[0].host.read()[0])  # E: use-after-transfer "\"self.jobs[0].host\" (the \"host\" of an element of \"self.jobs\") is used" "\"self.jobs[0].host = self.jobs[0].pending.wait()\""


def by_comprehension(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    started = [start(job, s) for job in jobs]
    return float(jobs[1].host.read()[0]) + len(started)  # E: use-after-transfer "\"jobs[1].host\" (the \"host\" of an element of \"jobs\") is used"


def after_inert_calls(s: nx.Stream[nx.Owned], extra: list[int]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        start(job, s)
    out = nx.pinned_array(4, np.float32)
    extra.append(len(jobs))
    print(max(extra), sorted(extra), out.shape)
    return float(jobs[0].host.read()[0])  # E: use-after-transfer "\"jobs[0].host\" (the \"host\" of an element of \"jobs\") is used"
