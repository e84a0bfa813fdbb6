# A path that ends in a NoReturn call does not reach the use.
# RUN: ok
import sys
from typing import NoReturn

import numpy as np

import numbaxfer as nx


def fail(msg: str) -> NoReturn:
    raise SystemExit(msg)



def f(ok: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    if not ok:
        up.wait()
        sys.exit(1)
    host = up.wait()
    host.read()


def g(ok: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    if not ok:
        up = s.upload(host, to=dev)
        up.wait()
        fail("no")
    host.read()


f(True)
g(True)
