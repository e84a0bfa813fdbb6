# Rule 3: while a write() view is open, its owner may not be read, lent, moved, written
# or freed: the view is the only way in until the block ends.
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def fill_and_send(s: nx.Stream[nx.Owned], host: Host, dev: Dev) -> Host:
    with host.write() as a:
        a[:] = 1.0
        up = s.upload(host, to=dev)  # E: owner-borrowed "\"host\" is moved into Stream.upload() while its write() view is open" "line 13"
    return up.wait()


def fill_and_peek(host: Host) -> float:
    with host.write() as a:
        a[:] = 2.0
        return float(host.read()[0])  # E: owner-borrowed "\"host.read()\" is called while its write() view is open"


def fill_and_lend(host: Host) -> None:
    with host.write() as a:
        a[0] = 3.0
        with host.lend() as v:  # E: owner-borrowed "\"host.lend()\" is called while its write() view is open"
            print(v.shape)


s = nx.stream()
h = nx.pinned_array(8, np.float32)
d = nx.device_array(8, np.float32)
h = fill_and_send(s, h, d)
