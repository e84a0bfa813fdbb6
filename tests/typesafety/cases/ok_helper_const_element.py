# A helper completing jobs[0].download: alone, before a drain of the others, or under a
# test of its own (then it is not known to complete it): silence.
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


def preview(jobs: list[Job]) -> Host:
    return jobs[0].download.wait()


def maybe_preview(jobs: list[Job]) -> float:
    if not jobs[0].download.completed:
        return float(jobs[0].download.wait().read()[0])
    return 0.0


def rest(jobs: list[Job]) -> list[Host]:
    return [j.download.wait() for j in jobs[1:]]


def make(s: nx.Stream[nx.Owned], d: Dev) -> list[Job]:
    return [Job(k, s.download(d, into=nx.pinned_array(8, np.float32))) for k in range(3)]


def first_then_rest(s: nx.Stream[nx.Owned], d: Dev) -> int:
    jobs = make(s, d)
    first = preview(jobs)
    return len(rest(jobs)) + first.shape[0]


def guarded(s: nx.Stream[nx.Owned], d: Dev) -> float:
    jobs = make(s, d)
    out = maybe_preview(jobs)
    out += maybe_preview(jobs)
    rest(jobs)
    return out


stream = nx.stream()
dev = nx.device_array(8, np.float32)
first_then_rest(stream, dev)
guarded(stream, dev)
