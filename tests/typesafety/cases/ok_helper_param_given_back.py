# Helpers that take a buffer through a parameter not declared nx.Consumed: the ones
# that move it give the new handle back (returned, or through the transfer they
# return) and the caller rebinds its name from the call; the others only read it.
# Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
Stream = nx.Stream[nx.Owned]


def round_trip(host: Host, s: Stream, dev: Dev) -> Host:
    """Upload and wait; return the handle the transfer gave back."""
    host = s.upload(host, to=dev).wait()
    return host


def wait_and_return(host: Host, s: Stream, dev: Dev) -> Host:
    up = s.upload(host, to=dev)
    return up.wait()


def through(host: Host, s: Stream, dev: Dev) -> Host:
    """Calls a helper that moves it, and returns what that one gave back."""
    return round_trip(host, s, dev)


def send(host: Host, s: Stream, dev: Dev) -> nx.Transfer[Host]:
    return s.upload(host, to=dev)


def first(host: Host) -> float:
    """Only reads its parameter."""
    return float(host.read()[0])


def relabel(host: Host, other: Host) -> Host:
    """Rebinds its parameter without moving the object it was given."""
    host = other
    return host


class Uploader:
    def __init__(self, s: Stream, dev: Dev) -> None:
        self.s = s
        self.dev = dev

    def push(self, host: Host) -> Host:
        return self.s.upload(host, to=self.dev).wait()


def main(twice: bool = True) -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    host = nx.pinned_array(16, np.float32)
    spare = nx.pinned_array(16, np.float32)
    with host.write() as a:
        a[:] = 3.0
    total = first(host)
    host = round_trip(host, s, dev)
    total += first(host)
    host = wait_and_return(host, s, dev)
    host = through(host, s, dev)
    t = send(host, s, dev)
    total += host.nbytes  # metadata stays readable
    host = t.wait()
    u = Uploader(s, dev)
    host = u.push(host)
    if twice:
        host = round_trip(host, s, dev)
    spare = relabel(host, spare)
    total += first(host) + first(spare)
    s.close()
    return total + float(host.read()[0])


main()
