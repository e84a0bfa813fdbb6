# RUN: raises UseAfterTransferError
# A sender typed ``Callable[[Host], nx.Transfer[Host]]`` (no nx.Consumed: the alias a user
# writes) is a partial of Stream.upload: the transfer it returns holds the buffer it was
# given, so a call through it moves the buffer. A retry sends the moved buffer again.
from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Sender = Callable[[Host], nx.Transfer[Host]]


class Link:
    def __init__(self, send: Sender) -> None:
        self.send = send

    def push_twice(self, buf: Host) -> Host:
        first = self.send(buf)
        landed = first.wait()
        again = self.send(buf)  # E: use-after-transfer
        landed = again.wait()
        return landed


def send_with_retry(send: Sender, buf: Host, attempts: int) -> Host:
    for _ in range(attempts):
        up = send(buf)  # E: use-after-transfer
        landed = up.wait()
        if landed.read()[0] == 0.0:
            return landed
    raise RuntimeError("link failed")


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    send: Sender = partial(s.upload, to=dev)
    buf = nx.pinned_array(8, np.float32)
    with buf.write() as a:
        a[:] = 1.0
    buf = send_with_retry(send, buf, 2)
    buf = Link(send).push_twice(buf)
    buf.free()
    dev.free()
    s.close()


main()
