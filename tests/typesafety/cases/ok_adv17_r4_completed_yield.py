# Rule 4, correct: the generator yields transfers it has already completed (a log of
# finished downloads, for reporting); the caller may stop early without wait().
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Host = nx.PinnedArray[nx.Owned, np.float32]


def finished(s: nx.Stream[nx.Owned], d: Dev, n: int, out: list[Host]) -> Iterator[nx.Transfer[Host]]:
    for _ in range(n):
        t = s.download(d, into=nx.pinned_array(8, np.float32))
        out.append(t.wait())
        yield t


def replay(log: list[nx.Transfer[Host]]) -> Iterator[nx.Transfer[Host]]:
    for t in log:
        if t.completed:
            yield t


def first_label(s: nx.Stream[nx.Owned], d: Dev, skip: int) -> str | None:
    hosts: list[Host] = []
    for k, t in enumerate(finished(s, d, 4, hosts)):
        if k >= skip:
            for h in hosts:
                h.free()
            return repr(t)
    return None


def report(log: list[nx.Transfer[Host]], limit: int) -> list[str]:
    lines: list[str] = []
    for k, t in enumerate(replay(log)):
        if k >= limit:
            return lines
        lines.append(f"{k}: {t!r}")
    return lines


stream = nx.stream()
dev = nx.device_array(8, np.float32)
print(first_label(stream, dev, 1))
done = [stream.download(dev, into=nx.pinned_array(8, np.float32)) for _ in range(3)]
for tr in done:
    tr.wait().free()
print(report(done, 1))
