# A function with a value-restricted TypeVar is checked once per value; one report.
from typing import TypeVar

import numpy as np

import numbaxfer as nx

N = TypeVar("N", int, float)


def f(scale: N) -> N:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    host.read()  # E: use-after-transfer "is used"
    host = up.wait()
    return scale
