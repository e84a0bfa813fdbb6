# A component that borrows the application's stream: it is handed a lent stream for
# the length of one job (so it may enqueue but never close it), does its uploads, and
# keeps nothing of the lend afterwards. The bug: the component caches the lent stream
# on itself "for later", and a later check() runs on it after the lend has ended.
# RUN: raises BorrowError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


class Uploader:
    def __init__(self) -> None:
        self.dev = nx.device_array(N, np.float32)
        self.jobs = 0

    def run_job(self, ls: nx.Stream[nx.Lent], buf: Host) -> Host:
        self.stream = ls
        up = ls.upload(buf, to=self.dev)
        self.jobs += 1
        return up.wait()

    def check(self) -> float:
        out = nx.pinned_array(N, np.float32)
        out = self.stream.download(self.dev, into=out).wait()
        return float(out.read()[0])


def main() -> None:
    s = nx.stream()
    worker = Uploader()
    buf = nx.pinned_copy(np.full(N, 7.0, np.float32))
    with s.lend() as ls:
        buf = worker.run_job(ls, buf)
    value = worker.check()  # E: lend-escape "worker.stream" "ls"
    assert value == 7.0 and worker.jobs == 1
    print("device holds", value)
    s.close()


main()
