# Rule 3: while a lend is open, its owner may be read (and lent again) but not moved,
# written or freed; the runtime refuses each with BorrowError and moves nothing.
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def upload_while_lent(s: nx.Stream[nx.Owned], host: Host, dev: Dev) -> Host:
    with host.lend() as view:
        total = float(view.read().sum()) + float(host.read()[0])
        up = s.upload(host, to=dev)  # E: owner-borrowed "\"host\" is moved into Stream.upload() while it is lent" "line 13"
    print(total)
    return up.wait()


def write_while_lent(host: Host) -> None:
    with host.lend() as view:
        with host.write() as a:  # E: owner-borrowed "\"host.write()\" is called while it is lent"
            a[:] = view.read()


def free_while_lent(host: Host) -> None:
    with host.lend() as view:
        print(view.shape)
        host.free()  # E: owner-borrowed "\"host.free()\" is called while it is lent"


s = nx.stream()
h = nx.pinned_array(8, np.float32)
d = nx.device_array(8, np.float32)
h = upload_while_lent(s, h, d)
