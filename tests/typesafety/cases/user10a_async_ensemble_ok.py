# RUN: ok
"""An ensemble of random-walk simulations run as asyncio tasks, each on its own stream:
walker positions go up, are advanced on the device, and come back with await."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def drift(pos: Any, kicks: Any, steps: int) -> None:
    for i in range(cuda.grid(1), pos.size, cuda.gridsize(1)):
        p = pos[i]
        for k in range(steps):
            p += kicks[(i + k) % kicks.size]
        pos[i] = p


@dataclass(frozen=True)
class Member:
    index: int
    walkers: int = 256
    steps: int = 8


@dataclass
class MemberResult:
    index: int
    mean: float


async def run_member(m: Member) -> MemberResult:
    s = nx.stream()
    rng = np.random.default_rng(m.index)
    d_pos = nx.device_array(m.walkers, np.float32)
    d_kick = nx.device_array(m.walkers, np.float32)
    pos = nx.pinned_copy(np.zeros(m.walkers, dtype=np.float32))
    kicks = nx.pinned_array(m.walkers, np.float32)
    with kicks.write() as a:
        a[:] = rng.choice(np.array([-1.0, 1.0], dtype=np.float32), size=m.walkers)
        a[:] += np.float32(0.5)
    pos = await s.upload(pos, to=d_pos)
    kicks = await s.upload(kicks, to=d_kick)
    s.launch(drift, 1, 64, d_pos, d_kick, m.steps)
    pos = await s.download(d_pos, into=pos)
    result = MemberResult(m.index, float(pos.read().mean()))
    s.close()
    return result


async def run_ensemble(members: list[Member]) -> list[MemberResult]:
    return list(await asyncio.gather(*(run_member(m) for m in members)))


def main() -> None:
    members = [Member(i) for i in range(4)]
    results = asyncio.run(run_ensemble(members))
    assert [r.index for r in results] == [0, 1, 2, 3]
    for r in results:
        assert 0.0 < r.mean < 8.0, r
    print("ensemble means:", [round(r.mean, 3) for r in results])


if __name__ == "__main__":
    main()
