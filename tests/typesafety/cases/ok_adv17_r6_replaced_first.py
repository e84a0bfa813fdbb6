# Rule 6, correct: after assemble(jobs) completed every element's download, the first
# job is replaced by a fresh one (item store, insert at the front), or the drain ran on
# a slice that leaves out element 0; preview(jobs) then completes a pending download.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

from typing import NamedTuple

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Job(NamedTuple):
    k: int
    download: nx.Transfer[Host]


def assemble(jobs: list[Job]) -> list[Host]:
    return [j.download.wait() for j in jobs]


def preview(jobs: list[Job]) -> float:
    return float(jobs[0].download.wait().read()[0])


def fresh(s: nx.Stream[nx.Owned], d: Dev, k: int) -> Job:
    return Job(k, s.download(d, into=nx.pinned_array(8, np.float32)))


def replaced(s: nx.Stream[nx.Owned], d: Dev) -> float:
    jobs = [fresh(s, d, k) for k in range(3)]
    tiles = assemble(jobs)
    jobs[0] = fresh(s, d, 99)
    return preview(jobs) + len(tiles)


def inserted(s: nx.Stream[nx.Owned], d: Dev) -> float:
    jobs = [fresh(s, d, k) for k in range(3)]
    tiles = assemble(jobs)
    jobs.insert(0, fresh(s, d, 99))
    return preview(jobs) + len(tiles)


def rest_first(s: nx.Stream[nx.Owned], d: Dev) -> float:
    jobs = [fresh(s, d, k) for k in range(3)]
    tiles = assemble(jobs[1:])
    return preview(jobs) + len(tiles)


def prepended(s: nx.Stream[nx.Owned], d: Dev) -> float:
    jobs = [fresh(s, d, k) for k in range(3)]
    tiles = assemble(jobs)
    jobs = [fresh(s, d, 99), *jobs]
    return preview(jobs) + len(tiles)


stream = nx.stream()
dev = nx.device_array(8, np.float32)
replaced(stream, dev)
inserted(stream, dev)
rest_first(stream, dev)
prepended(stream, dev)
