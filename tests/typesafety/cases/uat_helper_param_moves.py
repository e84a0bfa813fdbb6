# Helpers whose parameter is not declared nx.Consumed but which move it: through
# another helper, in a method, on one path only, in a nested def. The caller's handle
# is retired by each call.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
Stream = nx.Stream[nx.Owned]


def push(host: Host, s: Stream, dev: Dev) -> None:
    host = s.upload(host, to=dev).wait()


def outer(buf: Host, s: Stream, dev: Dev) -> None:
    push(buf, s, dev)


def maybe_push(host: Host, s: Stream, dev: Dev, now: bool) -> None:
    if now:
        host = s.upload(host, to=dev).wait()


class Uploader:
    def __init__(self, s: Stream, dev: Dev) -> None:
        self.s = s
        self.dev = dev

    def push(self, host: Host) -> None:
        self.s.upload(host, to=self.dev).wait()


def main(now: bool = True) -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    host = nx.pinned_array(16, np.float32)
    outer(host, s, dev)
    total = float(host.read()[0])  # E: use-after-transfer "is used" "push() at line 21 in outer()" "parameter \"buf\""
    host = nx.pinned_array(16, np.float32)
    Uploader(s, dev).push(host)
    total += float(host.read()[0])  # E: use-after-transfer "is used" "Uploader.push()"
    host = nx.pinned_array(16, np.float32)
    maybe_push(host, s, dev, now)
    total += float(host.read()[0])  # E: use-after-transfer "may be used" "maybe_push()"

    def send(b: Host) -> None:
        s.upload(b, to=dev).wait()

    host = nx.pinned_array(16, np.float32)
    send(host)
    total += host.nbytes  # metadata stays readable
    total += float(host.read()[0])  # E: use-after-transfer "is used" "send()"
    s.close()
    return total


main()
