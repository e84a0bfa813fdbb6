# Calling a partial that binds a buffer twice moves the same buffer twice; a partial of
# a user consuming function (from functools import partial) moves its bound buffer too.
from functools import partial

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def stage(buf: nx.Consumed[Host], s: nx.Stream[nx.Owned], dev: Dev) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


def twice(s: nx.Stream[nx.Owned], dev: Dev, host: Host) -> Host:
    again = partial(s.upload, host, to=dev)
    t1 = again()
    t2 = again()  # E: use-after-transfer "\"host\" is used after it was moved into Stream.upload() at line 19"
    t2.wait()
    return t1.wait()


def staged(s: nx.Stream[nx.Owned], dev: Dev, host: Host) -> Host:
    go = partial(stage, host, s)
    t = go(dev)
    print(host.size)  # metadata: fine
    host.read()  # E: use-after-transfer "moved into stage() at line 27"
    return t.wait()
