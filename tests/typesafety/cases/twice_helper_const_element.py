# A helper that completes one element's transfer by a constant index or key
# (jobs[0].download, jobs["main"]), called after another that completed every element's
# and left them there: a second completion, reported at the helper's call.
# RUN: raises UseAfterTransferError via-call
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


def run(s: nx.Stream[nx.Owned], d: Dev) -> float:
    jobs = [Job(k, s.download(d, into=nx.pinned_array(8, np.float32))) for k in range(3)]
    tiles = assemble(jobs)
    return preview(jobs) + len(tiles)  # E: transfer-completed-twice "preview()"


def assemble_named(jobs: dict[str, nx.Transfer[Host]]) -> list[Host]:
    return [t.wait() for t in jobs.values()]


def preview_named(jobs: dict[str, nx.Transfer[Host]]) -> float:
    return float(jobs["main"].wait().read()[0])


def by_name(s: nx.Stream[nx.Owned], d: Dev) -> float:
    jobs = {n: s.download(d, into=nx.pinned_array(8, np.float32)) for n in ("main", "aux")}
    tiles = assemble_named(jobs)
    return preview_named(jobs) + len(tiles)  # E: transfer-completed-twice "preview_named()"


run(nx.stream(), nx.device_array(8, np.float32))
